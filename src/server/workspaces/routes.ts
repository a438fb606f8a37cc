import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CreateWorkspaceBody, PatchWorkspaceBody, Workspace, WorkspaceList } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from './access';
import * as workspaces from './service';
import { WorkspaceParams } from './workspace-scope';

/** `/api/v1/workspaces`: the caller's workspaces and a new one; they answer before any membership exists. */
export async function workspaceRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];

  app.get('/workspaces', { schema: { tags, response: { 200: WorkspaceList } } }, async (request) => ({
    workspaces: await workspaces.listWorkspaces(ctx, request.user),
  }));

  app.post(
    '/workspaces',
    { schema: { tags, body: CreateWorkspaceBody, response: { 201: Workspace } } },
    async (request, reply) => {
      const row = await workspaces.createWorkspace(ctx, request.user, request.body.name);
      const access = await loadWorkspaceAccess(ctx, request.user, row.id);
      return reply.code(201).send(workspaces.toWorkspaceDto(row, access.permissions));
    },
  );
}

/** `/api/v1/workspaces/{ws}` itself, under the workspace scope: read and change. */
export async function workspaceSettingsRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];

  app.get('', { schema: { tags, params: WorkspaceParams, response: { 200: Workspace } } }, async (request) =>
    workspaces.toWorkspaceDto(request.access.workspace, request.access.permissions),
  );

  app.patch(
    '',
    { schema: { tags, params: WorkspaceParams, body: PatchWorkspaceBody, response: { 200: Workspace } } },
    async (request) => {
      const row = await workspaces.updateWorkspace(ctx, request.access, request.body);
      const after = await loadWorkspaceAccess(ctx, request.user, row.id);
      return workspaces.toWorkspaceDto(row, after.permissions);
    },
  );
}
