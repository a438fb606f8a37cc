import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SuppressionAnswer,
  SuppressionBody,
  SuppressionPage,
  SuppressionsQuery,
} from '@shared/api/customers';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as suppressions from './suppression-service';

/** `/api/v1/workspaces/{ws}/suppressions…`, under the workspace scope: the suppression list. */
export async function suppressionRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['customers'];
  const params = WorkspaceParams;

  app.get(
    '/suppressions',
    {
      schema: {
        tags,
        summary: 'The suppression list, newest first',
        params,
        querystring: SuppressionsQuery,
        response: { 200: SuppressionPage, 400: ErrorBody },
      },
    },
    async (request) => ({
      ...(await suppressions.listSuppressions(ctx, request.access, request.query)),
      abilities: { canManage: request.access.permissions.canManageWorkspace },
    }),
  );

  app.post(
    '/suppressions',
    {
      schema: {
        tags,
        summary: 'Add a profile id or email address to the suppression list (managers)',
        params,
        body: SuppressionBody,
        response: { 201: SuppressionAnswer, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await suppressions.addSuppression(ctx, request.access, request.body)),
  );

  app.delete(
    '/suppressions/:suppressionId',
    {
      schema: {
        tags,
        summary: 'Remove an entry from the suppression list (managers)',
        params: WorkspaceParams.extend({ suppressionId: z.string().min(1).max(100) }),
        response: { 204: z.null(), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await suppressions.removeSuppression(ctx, request.access, request.params.suppressionId);
      return reply.code(204).send(null);
    },
  );
}
