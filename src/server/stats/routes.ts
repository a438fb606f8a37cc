import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WorkspaceStats } from '@shared/api/stats';
import { WorkspaceParams } from '../workspaces/routes';
import type { AppContext } from '../context';
import { workspaceStats } from './service';

/** `GET /api/v1/workspaces/{id}/stats`: the workspace dashboard's numbers (issue 14). */
export async function statsRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/workspaces/:id/stats',
    {
      schema: {
        tags: ['stats'],
        description:
          'Items per schema, publish status per stage, approvals waiting, publishing and changes over 30 days',
        params: WorkspaceParams,
        response: { 200: WorkspaceStats },
      },
    },
    (request) => workspaceStats(ctx, request.user, request.params.id),
  );
}
