import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LIVE_EVENTS,
  LiveStreamQuery,
  LockAnswer,
  PresenceBody,
  TakeLockBody,
  type LivePresenceEvent,
} from '@shared/api/live';
import { ItemId, SchemaName } from '@shared/api/items';
import type { AppContext } from '../context';
import { unauthorized } from '../http/errors';
import { readableSchemaNames, schemaIn } from '../items/scope';
import { journal } from '../journal/journal';
import { currentLock, releaseLock, takeLock } from './locks';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { LiveHub } from './hub';
import { tabKey } from './tab-key';

const LockParams = WorkspaceParams.extend({ schema: SchemaName, id: ItemId });
const Done = z.object({ ok: z.literal(true) });

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
          'Server-Sent Events of the workspace, of the schemas the member may read: `ready` (this tab’s key), `item` (an item was written), `lock`, `presence` (another tab, by its key), `items` (refetch lists), `reset` (refetch everything), `revoked` (access is gone; do not reconnect)',
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
        // The connection ends with the stream: a server closing ends streams and then waits for idle connections.
        connection: 'close',
        'x-content-type-options': 'nosniff',
      });
      reply.raw.write(`retry: ${RECONNECT_MS}\n\n`);
      hub.open({
        key: tabKey(ctx.config.secret, request.access.user.id, request.query.tab),
        readable: readableSchemaNames(request.access),
        sessionHash: request.sessionHash,
        workspaceId: request.access.workspace.id,
        userId: request.access.user.id,
        response: reply.raw,
      });
    },
  );
  app.put(
    '/live/presence',
    {
      schema: {
        tags,
        description: `Where the caller's tab is (an item and the field being edited, or a list of a schema the caller may read); sent every 10 s, gone after 30 s unheard`,
        params: WorkspaceParams,
        body: PresenceBody,
        response: { 200: Done },
      },
    },
    async (request) => {
      const { tab, ...where } = request.body;
      const { user, member, workspace } = request.access;
      // A place is told only to those who may read its schema, and only a reader of it may tell it.
      for (const schema of [where.item?.schema, where.list]) if (schema) schemaIn(request.access, schema);
      const key = tabKey(ctx.config.secret, user.id, tab);
      const event: LivePresenceEvent = { key, user: { id: user.id, name: member.displayName }, where };
      // No row is written: presence lives in each process's memory, told to the others by the journal's notice.
      await journal(ctx.db, {
        changes: [
          { kind: 'live', workspaceId: workspace.id, event: LIVE_EVENTS.presence, data: { ...event } },
        ],
      });
      return { ok: true as const };
    },
  );

  lockRoutes(instance, ctx);
}

/** An item's soft edit lock: read, take or renew (or take over), release. */
function lockRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['live'];
  app.get(
    '/items/:schema/:id/lock',
    {
      schema: {
        tags,
        description: 'The item’s edit lock while it holds',
        params: LockParams,
        response: { 200: LockAnswer },
      },
    },
    async (request) => ({
      lock: await currentLock(
        ctx,
        ctx.db,
        schemaIn(request.access, request.params.schema),
        request.params.id,
      ),
    }),
  );

  app.put(
    '/items/:schema/:id/lock',
    {
      schema: {
        tags,
        description:
          'Takes or renews the item’s edit lock for a tab (5 minutes from each renewal); 409 “Being edited by {name}” when another editor holds it, unless takeOver',
        params: LockParams,
        body: TakeLockBody,
        response: { 200: LockAnswer },
      },
    },
    async (request) =>
      takeLock(ctx, schemaIn(request.access, request.params.schema), request.params.id, request.body),
  );

  app.delete(
    '/items/:schema/:id/lock',
    {
      schema: {
        tags,
        description: 'Releases the item’s edit lock if the tab holds it (Save, Cancel, leaving)',
        params: LockParams,
        querystring: LiveStreamQuery,
        response: { 200: LockAnswer },
      },
    },
    async (request) =>
      releaseLock(ctx, schemaIn(request.access, request.params.schema), request.params.id, request.query.tab),
  );
}
