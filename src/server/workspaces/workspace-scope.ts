import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { WorkspaceId } from '@shared/api/workspaces';
import { WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import type { AppContext } from '../context';
import { requireVerifiedUser, resolveWorkspaceAccess, type WorkspaceAccess } from './access';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller's standing in the workspace the request names, resolved once before the body is read.
     * Set on the routes registered through `workspaceScope` and `funWorkspaceScope` only.
     */
    access: WorkspaceAccess;
  }
}

/** The path parameter every route under `/api/v1/workspaces/:ws` shares. */
export const WorkspaceParams = z.object({ ws: WorkspaceId });

/** Registers one concept's routes with paths relative to the scope it is given. */
export type ScopedRoutes = (scope: FastifyInstance, ctx: AppContext) => Promise<void>;

/**
 * The plugin mounted at `/api/v1/workspaces/:ws`: before anything else of the request, the caller's access
 * is resolved once (401 without a session, 403 unverified, 404 'Workspace not found' for anyone who is not
 * an active member, so existence does not leak) and handed to every route as `request.access`.
 */
export function workspaceScope(ctx: AppContext, concepts: ScopedRoutes[]) {
  return async (scope: FastifyInstance) => {
    scope.decorateRequest('access', null as unknown as WorkspaceAccess);
    scope.addHook('onRequest', async (request: FastifyRequest<{ Params: { ws?: string } }>) => {
      request.access = await resolveWorkspaceAccess(ctx, request.user, request.params.ws);
    });
    for (const routes of concepts) await routes(scope, ctx);
  };
}

/**
 * The same single resolution for the function service routes, which carry the workspace in
 * `__marquee_workspace`. A missing value is left to the route's query schema, which answers 400 naming
 * the parameter (every route under this scope requires it); any other value is resolved like the path's
 * `:ws`, so one that cannot be a workspace id (`../..`) is answered 404 like a stranger's.
 */
export function funWorkspaceScope(ctx: AppContext, concepts: ScopedRoutes[]) {
  return async (scope: FastifyInstance) => {
    scope.decorateRequest('access', null as unknown as WorkspaceAccess);
    scope.addHook(
      'onRequest',
      async (request: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>) => {
        const user = requireVerifiedUser(request.user);
        const workspaceId = request.query[WORKSPACE_QUERY_PARAM];
        if (workspaceId === undefined || workspaceId === '') return;
        request.access = await resolveWorkspaceAccess(ctx, user, workspaceId);
      },
    );
    for (const routes of concepts) await routes(scope, ctx);
  };
}
