import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OkResponse } from '@shared/api/auth';
import {
  Invitation,
  InviteBody,
  Member,
  MemberList,
  PatchMemberBody,
  WorkspaceId,
} from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as members from './service';

const Params = z.object({ id: WorkspaceId });

export async function memberRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];

  app.get(
    '/workspaces/:id/members',
    { schema: { tags, params: Params, response: { 200: MemberList } } },
    async (request) =>
      members.listMembersAndInvitations(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.id)),
  );

  app.post(
    '/workspaces/:id/members/invitations',
    { schema: { tags, params: Params, body: InviteBody, response: { 201: Invitation } } },
    async (request, reply) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      return reply.code(201).send(await members.invite(ctx, access, request.body));
    },
  );

  app.delete(
    '/workspaces/:id/members/invitations/:email',
    {
      schema: { tags, params: Params.extend({ email: z.string().max(320) }), response: { 200: OkResponse } },
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      await members.revokeInvitation(ctx, access, request.params.email);
      return { ok: true as const };
    },
  );

  app.patch(
    '/workspaces/:id/members/:userId',
    {
      schema: {
        tags,
        params: Params.extend({ userId: z.string().max(64) }),
        body: PatchMemberBody,
        response: { 200: Member },
      },
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.id);
      return members.updateMember(ctx, access, request.params.userId, request.body);
    },
  );
}
