import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Batch, BatchList, StartUploadBatchBody, UploadProgressBody } from '@shared/api/workspaces';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { sendCsv } from '../http/csv-output';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as service from './service';

const BatchId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Batch not found');
const BatchParams = WorkspaceParams.extend({ batchId: BatchId });

/** `/api/v1/workspaces/{ws}/batches…`, under the workspace scope: bulk jobs (imports, bulk uploads) and their progress. */
export async function batchRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['batches'];

  app.get(
    '/batches',
    { schema: { tags, params: WorkspaceParams, response: { 200: BatchList } } },
    async (request) => ({ batches: await service.listBatches(ctx, request.access) }),
  );

  app.get(
    '/batches/:batchId',
    {
      schema: {
        tags,
        summary: 'One bulk job: status, counts, row errors by message and the first 100 row errors',
        params: BatchParams,
        response: { 200: Batch },
      },
    },
    async (request) => service.getBatch(ctx, request.access, request.params.batchId),
  );

  app.get(
    '/batches/:batchId/errors.csv',
    {
      schema: {
        tags,
        summary: 'Every row error of a bulk job as CSV: line,message in line order',
        params: BatchParams,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await service.batchErrorsCsv(ctx, request.access, request.params.batchId);
      return sendCsv(reply, fileName, csv);
    },
  );

  app.post(
    '/batches',
    {
      schema: {
        tags,
        summary: 'Start the batch of a bulk image upload (the import routes start their own)',
        params: WorkspaceParams,
        body: StartUploadBatchBody,
        response: { 201: Batch, 403: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.startImageUploadBatch(ctx, request.access, request.body.total)),
  );

  app.post(
    '/batches/:batchId/progress',
    {
      schema: {
        tags,
        summary: 'Report images saved and failed; `finished` ends the batch',
        params: BatchParams,
        body: UploadProgressBody,
        response: { 200: Batch, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => service.reportImageUpload(ctx, request.access, request.params.batchId, request.body),
  );
}
