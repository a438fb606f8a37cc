import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AutocompleteQuery,
  Neighbour,
  NeighbourQuery,
  PlaceAddress,
  PlaceIdParams,
  PlacesConfig,
  PlaceSuggestions,
  PlacesQuery,
} from '@shared/api/places';
import { GeohashError, neighbourOf, type Direction } from '@shared/geo/geohash';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { requireVerifiedUser } from '../workspaces/access';
import { autocomplete, placeDetails, placesConfig } from './service';

/** `/fun/geohash/neighbours` (spec §8 geohash errors): any verified user, no workspace involved. */
export async function geohashFunRoutes(instance: FastifyInstance) {
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

/**
 * `/fun/places/config`, `/fun/places/autocomplete` and `/fun/places/{placeId}` (spec §7 places
 * autocomplete), under the function service's workspace scope.
 */
export async function placesFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['places'];

  app.get(
    '/places/config',
    {
      schema: {
        tags,
        description: 'Which address lookup the server offers, and the map tile URL',
        querystring: PlacesQuery,
        response: { 200: PlacesConfig },
      },
    },
    async () => placesConfig(ctx),
  );

  app.get(
    '/places/autocomplete',
    {
      schema: {
        tags,
        description:
          'Address suggestions from the configured provider, biased by lat/lng; 503 when lookup is not configured, 429 past the workspace rate limit',
        querystring: AutocompleteQuery,
        response: { 200: PlaceSuggestions },
      },
    },
    async (request) => autocomplete(ctx, request.access, request.query),
  );

  app.get(
    '/places/:placeId',
    {
      schema: {
        tags,
        description: "The spec's address value of a suggestion (with its geohash)",
        params: PlaceIdParams,
        querystring: PlacesQuery,
        response: { 200: PlaceAddress },
      },
    },
    async (request) => placeDetails(ctx, request.access, request.params.placeId),
  );
}
