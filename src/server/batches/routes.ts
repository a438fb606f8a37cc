import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Batch,
  BatchList,
  StartUploadBatchBody,
  UploadProgressBody,
  WorkspaceId,
} from '@shared/api/workspaces';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as service from './service';

const BatchId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Batch not found');

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

  app.post(
    '/workspaces/:id/batches',
    {
      schema: {
        tags,
        summary: 'Start the batch of a bulk image upload (the import routes start their own)',
        params: z.object({ id: WorkspaceId }),
        body: StartUploadBatchBody,
        response: { 201: Batch, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      return reply.code(201).send(await service.startImageUploadBatch(ctx, access, request.body.total));
    },
  );

  app.post(
    '/workspaces/:id/batches/:batchId/progress',
    {
      schema: {
        tags,
        summary: 'Report images saved and failed; `finished` ends the batch',
        params: z.object({ id: WorkspaceId, batchId: BatchId }),
        body: UploadProgressBody,
        response: { 200: Batch, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      service.reportImageUpload(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.id),
        request.params.batchId,
        request.body,
      ),
  );
}
