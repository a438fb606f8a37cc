import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Visualisation, WorkspaceStats } from '@shared/api/stats';
import { Subscription } from '@shared/api/workspaces';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import type { AppContext } from '../context';
import { getVisualisation, refreshVisualisation, subscriptionOf, workspaceStats } from './service';

/** Under the workspace scope: the dashboard's numbers, the visualisation results and the subscription's usage. */
export async function statsRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/stats',
    {
      schema: {
        tags: ['stats'],
        description:
          'Items per schema, publish status per stage, approvals waiting, publishing and changes over 30 days',
        params: WorkspaceParams,
        response: { 200: WorkspaceStats },
      },
    },
    (request) => workspaceStats(ctx, request.access),
  );

  app.get(
    '/subscription',
    { schema: { tags: ['workspaces'], params: WorkspaceParams, response: { 200: Subscription } } },
    (request) => subscriptionOf(ctx, request.access),
  );

  app.get(
    '/visualisation',
    {
      schema: {
        tags: ['stats'],
        description: 'The stored results of the generic visualisation GET, newest first',
        params: WorkspaceParams,
        response: { 200: Visualisation },
      },
    },
    (request) => getVisualisation(ctx, request.access),
  );
  app.post(
    '/visualisation',
    {
      schema: {
        tags: ['stats'],
        description:
          "GETs VISUALISATION_URL (with VISUALISATION_HEADER) and stores the JSON under a timestamp key; managers only; 503 not_configured 'Visualisation not configured'",
        params: WorkspaceParams,
        response: { 200: Visualisation },
      },
    },
    (request) => refreshVisualisation(ctx, request.access),
  );
}
