import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditPage, AuditQuery } from '@shared/api/delivery';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { listAudit } from './service';

export async function auditRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/audit',
    {
      schema: {
        tags: ['audit'],
        description: 'Who did what to which item, role, member, key or webhook, newest first (managers)',
        params: WorkspaceParams,
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) => listAudit(ctx, request.access, request.query),
  );
}
