import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWorkspaceBody,
  PatchWorkspaceBody,
  Subscription,
  Workspace,
  WorkspaceId,
  WorkspaceList,
} from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from './access';
import * as workspaces from './service';

export const WorkspaceParams = z.object({ id: WorkspaceId });

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

  app.get(
    '/workspaces/:id',
    { schema: { tags, params: WorkspaceParams, response: { 200: Workspace } } },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      return workspaces.toWorkspaceDto(access.workspace, access.permissions);
    },
  );

  app.patch(
    '/workspaces/:id',
    { schema: { tags, params: WorkspaceParams, body: PatchWorkspaceBody, response: { 200: Workspace } } },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      const row = await workspaces.updateWorkspace(ctx, access, request.body);
      const after = await loadWorkspaceAccess(ctx, request.user, row.id);
      return workspaces.toWorkspaceDto(row, after.permissions);
    },
  );

  app.get(
    '/workspaces/:id/subscription',
    { schema: { tags, params: WorkspaceParams, response: { 200: Subscription } } },
    async (request) =>
      workspaces.subscriptionOf(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.id)),
  );
}
