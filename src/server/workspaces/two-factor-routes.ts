import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES } from '@shared/api/errors';
import { TWO_FACTOR_MESSAGES, WorkspaceTwoFactor } from '@shared/api/two-factor';
import type { AppContext } from '../context';
import { badRequest, conflict } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { hasSecondFactor, requireManager, type WorkspaceAccess } from './access';
import * as repo from './repository';
import { WorkspaceParams } from './workspace-scope';

/** Sets whether members must have two-factor sign-in; a manager without it cannot require it. */
async function setRequirement(ctx: AppContext, access: WorkspaceAccess, required: boolean) {
  requireManager(access);
  if (required && !(await hasSecondFactor(ctx, access.workspace.id, access.user)))
    throw badRequest(TWO_FACTOR_MESSAGES.ownFirst);
  const current = access.workspace;
  if (current.requireTwoFactor === required) return { required };
  await ctx.db.transaction(async (tx) => {
    const row = await repo.updateWorkspace(tx, current.id, current.version, { requireTwoFactor: required });
    if (!row) throw conflict(MESSAGES.staleVersion);
    await journal(tx, {
      audit: [
        {
          workspaceId: current.id,
          user: actorOf(access),
          action: 'two-factor.requirement-updated',
          targetType: 'workspace',
          targetId: current.id,
          label: row.name,
          detail: { required },
        },
      ],
      changes: [repo.membershipsChanged(current.id)],
    });
  });
  return { required };
}

export async function workspaceTwoFactorRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspaces'];

  app.get(
    '/two-factor',
    { schema: { tags, params: WorkspaceParams, response: { 200: WorkspaceTwoFactor } } },
    async (request) => ({ required: request.access.workspace.requireTwoFactor }),
  );

  app.put(
    '/two-factor',
    {
      schema: {
        tags,
        description: 'Whether members must have two-factor sign-in (managers only)',
        params: WorkspaceParams,
        body: WorkspaceTwoFactor,
        response: { 200: WorkspaceTwoFactor },
      },
    },
    async (request) => setRequirement(ctx, request.access, request.body.required),
  );
}
