import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EventBody } from '@shared/api/events';
import type { AppContext } from '../context';
import { recordEvent } from './service';

export async function eventRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/events',
    {
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      bodyLimit: 16 * 1024,
      schema: { tags: ['events'], body: EventBody, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await recordEvent(ctx, request.user, request.sessionHash, request.body);
      return reply.code(204).send(null);
    },
  );
}
