import { MESSAGES } from '@shared/api/errors';
import { approverRoleLabel } from '@shared/publishing/approvals';
import type { InviteBody, Member } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { findUserByEmail } from '../auth/repository';
import type { Db, Tx } from '../db/client';
import { actorOf, journal } from '../journal/journal';
import { membershipsChanged } from './repository';
import { badRequest, conflict, notFound } from '../http/errors';
import { invitationMail } from '../mail/templates';
import { requireManager, type WorkspaceAccess } from './access';
import * as repo from './members-repository';

function checkRolesExist(access: WorkspaceAccess, roles: string[]) {
  for (const role of roles) {
    if (!Object.hasOwn(access.workspace.roles, role)) throw badRequest(`Role "${role}" does not exist`);
  }
  return [...new Set(roles)];
}

export async function listMembersAndInvitations(ctx: AppContext, access: WorkspaceAccess) {
  const [members, invitations] = await Promise.all([
    repo.listMembers(ctx.db, access.workspace.id),
    repo.listInvitations(ctx.db, access.workspace.id),
  ]);
  return {
    members,
    invitations: invitations.map((i) => ({
      email: i.email,
      roles: i.roles,
      isWorkspaceManager: i.isManager,
      invitedAt: i.invitedAt.toISOString(),
      invitedBy: i.invitedBy,
    })),
  };
}

/** Invites an address with roles; it joins when that person verifies it or signs in with it. */
export async function invite(ctx: AppContext, access: WorkspaceAccess, body: Required<InviteBody>) {
  requireManager(access);
  const roles = checkRolesExist(access, body.roles);
  const existing = await findUserByEmail(ctx.db, body.email);
  if (existing && (await repo.findMember(ctx.db, access.workspace.id, existing.id))) {
    throw conflict('This person is already a member of the workspace');
  }
  const row = await ctx.db.transaction(async (tx) => {
    const invitation = await repo.upsertInvitation(tx, {
      workspaceId: access.workspace.id,
      email: body.email,
      roles,
      isManager: body.isWorkspaceManager,
      invitedBy: access.user.name,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'member.invited',
          targetType: 'member',
          targetId: body.email,
          label: body.email,
          detail: { roles, isWorkspaceManager: body.isWorkspaceManager },
        },
      ],
    });
    return invitation;
  });
  // Someone without an account lands where they create it; someone with one signs in.
  const mode = existing ? '' : 'mode=sign-up&';
  const link = `${ctx.config.publicUrl}/auth/welcome?${mode}email=${encodeURIComponent(body.email)}`;
  const as = {
    roleNames: roles.map((role) => approverRoleLabel(access.workspace.roles, role)),
    isManager: body.isWorkspaceManager,
  };
  const invite = {
    workspaceName: access.workspace.name,
    inviterName: access.user.name,
    as,
    hasAccount: !!existing,
  };
  await ctx.mailer.send(invitationMail(body.email, invite, link));
  return {
    email: row.email,
    roles: row.roles,
    isWorkspaceManager: row.isManager,
    invitedAt: row.invitedAt.toISOString(),
    invitedBy: row.invitedBy,
  };
}

export async function revokeInvitation(ctx: AppContext, access: WorkspaceAccess, email: string) {
  requireManager(access);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteInvitation(tx, access.workspace.id, email.toLowerCase()))) {
      throw notFound('Invitation not found');
    }
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'invitation.revoked',
          targetType: 'member',
          targetId: email.toLowerCase(),
          label: email.toLowerCase(),
        },
      ],
    });
  });
}

/** Changes a member's roles, manager flag, activity or name; a workspace always keeps one active manager. */
export async function updateMember(
  ctx: AppContext,
  access: WorkspaceAccess,
  userId: string,
  patch: { active?: boolean; roles?: string[]; isWorkspaceManager?: boolean; displayName?: string },
): Promise<Member> {
  requireManager(access);
  const roles = patch.roles ? checkRolesExist(access, patch.roles) : undefined;
  return ctx.db.transaction(async (tx) => {
    const row = await repo.updateMember(tx, access.workspace.id, userId, {
      ...(patch.active !== undefined ? { active: patch.active } : {}),
      ...(roles ? { roles } : {}),
      ...(patch.isWorkspaceManager !== undefined ? { isManager: patch.isWorkspaceManager } : {}),
      ...(patch.displayName ? { displayName: patch.displayName } : {}),
    });
    if (!row) throw notFound('Member not found');
    if ((await repo.countActiveManagers(tx, access.workspace.id)) === 0) throw conflict(MESSAGES.lastManager);
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'member.updated',
          targetType: 'member',
          targetId: userId,
          label: row.displayName,
          detail: { ...patch, ...(roles ? { roles } : {}) },
        },
      ],
      // Items name their writer by member name.
      changes: [
        membershipsChanged(access.workspace.id, userId),
        ...(patch.displayName ? [{ kind: 'items' as const, workspaceId: access.workspace.id }] : []),
      ],
    });
    const member = (await repo.listMembers(tx, access.workspace.id)).find((m) => m.userId === userId);
    return member!;
  });
}

/**
 * Turns every invitation to the user's verified address into an active membership, each journaled in
 * its workspace (the new member's name labels the row); answers how many joined.
 */
export async function joinInvitedWorkspaces(
  db: Db | Tx,
  user: { id: string; email: string; name: string; address?: string | null },
) {
  const accepted = await repo.acceptInvitations(db, user);
  for (const invitation of accepted) {
    await journal(db, {
      audit: [
        {
          workspaceId: invitation.workspaceId,
          user: { id: user.id, name: user.name, address: user.address ?? null },
          action: 'member.joined',
          targetType: 'member',
          targetId: user.id,
          label: user.name,
          detail: { roles: invitation.roles, isWorkspaceManager: invitation.isManager },
        },
      ],
      changes: [
        membershipsChanged(invitation.workspaceId, user.id),
        { kind: 'items', workspaceId: invitation.workspaceId },
      ],
    });
  }
  return accepted.length;
}
