import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AudienceSizes,
  CriteriaDefinitions,
  SampleAnswer,
  SizeAnswer,
  SizeBody,
} from '@shared/api/customers';
import { ErrorBody } from '@shared/api/errors';
import { ItemId } from '@shared/api/items';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadSchemaScope } from '../items/scope';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as audiences from './service';

/** `/api/v1/workspaces/{ws}/audiences/…`: live sizes, samples and the matching profiles of audiences. */
export async function audienceRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['audiences'];
  const params = z.object({ id: WorkspaceId });

  app.post(
    '/workspaces/:id/audiences/size',
    {
      schema: {
        tags,
        summary: 'Matching and total profiles of a criteria tree (one SQL statement)',
        params,
        body: SizeBody,
        response: { 200: SizeAnswer, 400: ErrorBody },
      },
    },
    async (request) =>
      audiences.sizeOf(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.id),
        request.body.criteria,
        request.body.asOf,
      ),
  );

  app.post(
    '/workspaces/:id/audiences/sample',
    {
      schema: {
        tags,
        summary: 'Up to 10 matching profiles of a criteria tree',
        params,
        body: SizeBody,
        response: { 200: SampleAnswer, 400: ErrorBody },
      },
    },
    async (request) =>
      audiences.sampleOf(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.id),
        request.body.criteria,
        request.body.asOf,
      ),
  );

  app.get(
    '/workspaces/:id/audiences/definitions',
    {
      schema: {
        tags,
        summary: 'The attributes, events and audiences criteria may refer to',
        params,
        response: { 200: CriteriaDefinitions },
      },
    },
    async (request) =>
      audiences.criteriaDefinitions(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.id)),
  );

  app.get(
    '/workspaces/:id/audiences/sizes',
    { schema: { tags, summary: "Every audience's size now", params, response: { 200: AudienceSizes } } },
    async (request) =>
      audiences.audienceSizes(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.id)),
  );

  app.get(
    '/workspaces/:id/audiences/:itemId/profiles.csv',
    {
      schema: {
        tags,
        summary: "Every profile matching an audience's criteria, as CSV (streamed)",
        params: z.object({ id: WorkspaceId, itemId: ItemId }),
      },
    },
    async (request, reply) => {
      const scope = await loadSchemaScope(ctx, request.user, request.params.id, 'audience');
      const lines = await audiences.audienceProfilesCsv(ctx, scope, request.params.itemId);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audience-${request.params.itemId}.csv"`)
        .send(Readable.from(lines));
    },
  );
}
