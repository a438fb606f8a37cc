import { MESSAGES } from '@shared/api/errors';
import { effectivePermissions, type Permissions } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/repository';
import { forbidden, notFound, unauthorized } from '../http/errors';
import type { MemberRow } from '../members/repository';
import { findMembership, type WorkspaceRow } from './repository';

export interface WorkspaceAccess {
  user: UserRow;
  workspace: WorkspaceRow;
  member: MemberRow;
  permissions: Permissions;
}

/** A signed-in user whose email is verified (spec §6: private routes need both). */
export function requireVerifiedUser(user: UserRow | null): UserRow {
  if (!user) throw unauthorized();
  if (!user.emailVerified) throw forbidden(MESSAGES.emailNotVerified);
  return user;
}

/**
 * The caller's standing in a workspace. Anyone who is not an active member gets the same 404 as for a
 * workspace that does not exist, so existence does not leak.
 */
export async function loadWorkspaceAccess(
  ctx: AppContext,
  caller: UserRow | null,
  workspaceId: string,
): Promise<WorkspaceAccess> {
  const user = requireVerifiedUser(caller);
  const found = await findMembership(ctx.db, workspaceId, user.id);
  if (!found?.member.active) throw notFound(MESSAGES.workspaceNotFound);
  const { workspace, member } = found;
  const permissions = effectivePermissions(workspace.roles, {
    active: member.active,
    roles: member.roles,
    isWorkspaceManager: member.isManager,
  });
  return { user, workspace, member, permissions };
}

export function requireManager(access: WorkspaceAccess) {
  if (!access.permissions.canManageWorkspace) throw forbidden(MESSAGES.managerRequired);
}
