import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PublicConfig } from '@shared/api/public-config';
import type { AppContext } from '../context';
import { publicConfig } from './service';

/** `GET /__/config.json` and the spec's `GET /__/firebase/init.json` (§7): the public runtime configuration. */
export async function publicConfigRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  for (const url of ['/__/config.json', '/__/firebase/init.json']) {
    app.get(
      url,
      {
        schema: {
          tags: ['config'],
          description:
            'Public runtime configuration: version, public URL, configured provider names, map tiles',
          response: { 200: PublicConfig },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return publicConfig(ctx.config);
      },
    );
  }
}
