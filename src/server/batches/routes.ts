import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Batch, BatchList, WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as service from './service';

/** `/api/v1/workspaces/{ws}/batches…`: bulk jobs (imports, bulk uploads) and their progress. */
export async function batchRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['batches'];

  app.get(
    '/workspaces/:id/batches',
    { schema: { tags, params: z.object({ id: WorkspaceId }), response: { 200: BatchList } } },
    async (request) => ({
      batches: await service.listBatches(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.id),
      ),
    }),
  );

  app.get(
    '/workspaces/:id/batches/:batchId',
    {
      schema: {
        tags,
        summary: 'One bulk job: status, counts, the first 100 row errors',
        params: z.object({
          id: WorkspaceId,
          batchId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Batch not found'),
        }),
        response: { 200: Batch },
      },
    },
    async (request) =>
      service.getBatch(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.id),
        request.params.batchId,
      ),
  );
}
