import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Neighbour, NeighbourQuery } from '@shared/api/places';
import { GeohashError, neighbourOf, type Direction } from '@shared/geo/geohash';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { requireVerifiedUser } from '../workspaces/access';

/** `/fun/geohash/neighbours` (spec §8 geohash errors). */
export async function placesFunRoutes(instance: FastifyInstance, _ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['places'];

  app.get(
    '/geohash/neighbours',
    {
      schema: {
        tags,
        description:
          "The neighbouring cell of a geohash in a direction; 400 'Invalid geohash' or 'Invalid direction'",
        querystring: NeighbourQuery,
        response: { 200: Neighbour },
      },
    },
    async (request) => {
      requireVerifiedUser(request.user);
      const { hash, direction } = request.query;
      try {
        const neighbour = neighbourOf(hash, direction);
        return { hash: hash.toLowerCase(), direction: direction.toLowerCase() as Direction, neighbour };
      } catch (err) {
        if (err instanceof GeohashError) throw badRequest(err.message);
        throw err;
      }
    },
  );
}
