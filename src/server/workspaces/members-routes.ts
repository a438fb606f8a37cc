import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OkResponse } from '@shared/api/auth';
import { Invitation, InviteBody, Member, MemberList, PatchMemberBody } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { WorkspaceParams } from './workspace-scope';
import * as members from './members-service';

/** `/api/v1/workspaces/{ws}/members…`, under the workspace scope. */
export async function memberRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['members'];

  app.get(
    '/members',
    { schema: { tags, params: WorkspaceParams, response: { 200: MemberList } } },
    async (request) => members.listMembersAndInvitations(ctx, request.access),
  );

  app.post(
    '/members/invitations',
    { schema: { tags, params: WorkspaceParams, body: InviteBody, response: { 201: Invitation } } },
    async (request, reply) => reply.code(201).send(await members.invite(ctx, request.access, request.body)),
  );

  app.delete(
    '/members/invitations/:email',
    {
      schema: {
        tags,
        params: WorkspaceParams.extend({ email: z.string().max(320) }),
        response: { 200: OkResponse },
      },
    },
    async (request) => {
      await members.revokeInvitation(ctx, request.access, request.params.email);
      return { ok: true as const };
    },
  );

  app.patch(
    '/members/:userId',
    {
      schema: {
        tags,
        params: WorkspaceParams.extend({ userId: z.string().max(64) }),
        body: PatchMemberBody,
        response: { 200: Member },
      },
    },
    async (request) => members.updateMember(ctx, request.access, request.params.userId, request.body),
  );
}
