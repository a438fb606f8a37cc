import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LiveStreamQuery } from '@shared/api/live';
import type { AppContext } from '../context';
import { unauthorized } from '../http/errors';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { LiveHub } from './hub';

/** How long a browser waits before it reconnects a dropped stream. */
const RECONNECT_MS = 3_000;

/** The workspace's event stream (Server-Sent Events), one per signed-in tab. */
export async function liveRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['live'];
  const hub = new LiveHub(ctx);
  // Before the server waits for its connections to end: open streams never would.
  app.addHook('preClose', async () => hub.close());

  app.get(
    '/live',
    {
      schema: {
        tags,
        description:
          'Server-Sent Events of the workspace: `item` (an item was written), `items` (refetch lists), `reset` (refetch everything), `revoked` (access is gone; do not reconnect)',
        params: WorkspaceParams,
        querystring: LiveStreamQuery,
      },
    },
    async (request, reply) => {
      // A stream lives as long as its session: an API token that is not a session has none to check.
      if (!request.sessionHash) throw unauthorized();
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      reply.raw.write(`retry: ${RECONNECT_MS}\n\n`);
      hub.open({
        tab: request.query.tab,
        sessionHash: request.sessionHash,
        workspaceId: request.access.workspace.id,
        userId: request.access.user.id,
        response: reply.raw,
      });
    },
  );
}
