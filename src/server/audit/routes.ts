import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditPage, AuditQuery } from '@shared/api/delivery';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import { listAudit } from './service';

export async function auditRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/workspaces/:ws/audit',
    {
      schema: {
        tags: ['audit'],
        description: 'Who did what to which item, role, member, key or webhook, newest first (managers)',
        params: z.object({ ws: WorkspaceId }),
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) =>
      listAudit(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.ws), request.query),
  );
}
