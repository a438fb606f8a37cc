import { MESSAGES } from '@shared/api/errors';
import { CUSTOMER_DATA_MESSAGES } from '@shared/api/customers';
import { TWO_FACTOR_MESSAGES } from '@shared/api/two-factor';
import { can, effectivePermissions, type Permissions } from '@shared/permissions/permissions';
import { type CustomerDataRight } from '@shared/permissions/customer-data-rights';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { countPasskeys } from '../auth/passkey-repository';
import type { Caller } from '../auth/repository';
import { forbidden, notFound, unauthorized } from '../http/errors';
import type { ContentModel } from '@shared/model/registry';
import { modelOf } from './content-model';
import type { MemberRow } from './members-repository';
import { findMembership, hasSsoIdentity, type Membership, type WorkspaceRow } from './repository';

export interface WorkspaceAccess {
  user: Caller;
  workspace: WorkspaceRow;
  member: MemberRow;
  permissions: Permissions;
  /** The workspace's content model: every schema a route names is looked up here. */
  model: ContentModel;
}

/** A signed-in user whose email is verified (spec §6: private routes need both). */
export function requireVerifiedUser<U extends Caller>(user: U | null): U {
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
  caller: Caller | null,
  workspaceId: string,
): Promise<WorkspaceAccess> {
  const user = requireVerifiedUser(caller);
  const found = await findMembership(ctx.db, workspaceId, user.id);
  if (!found?.member.active) throw notFound(MESSAGES.workspaceNotFound);
  const { workspace, member } = found;
  if (workspace.requireTwoFactor && !(await hasSecondFactor(ctx, workspace.id, user)))
    throw forbidden(TWO_FACTOR_MESSAGES.required);
  return {
    user,
    workspace,
    member,
    permissions: permissionsOf(found),
    model: await modelOf(ctx.db, workspace),
  };
}

/**
 * Two-factor sign-in on the account (an authenticator app or a passkey), or the workspace's single
 * sign-on, whose provider asks its own.
 */
export async function hasSecondFactor(ctx: AppContext, workspaceId: string, user: Caller) {
  if (user.totpEnabledAt !== null) return true;
  return (await countPasskeys(ctx.db, user.id)) > 0 || hasSsoIdentity(ctx.db, workspaceId, user.id);
}

/**
 * The caller's access to a workspace named by an unchecked value (a path parameter before validation): the
 * session is checked first, and a value that cannot be a workspace id is answered like a stranger's.
 */
export async function resolveWorkspaceAccess(
  ctx: AppContext,
  caller: Caller | null,
  workspaceId: unknown,
): Promise<WorkspaceAccess> {
  const user = requireVerifiedUser(caller);
  const parsed = WorkspaceId.safeParse(workspaceId);
  if (!parsed.success) throw notFound(MESSAGES.workspaceNotFound);
  return loadWorkspaceAccess(ctx, user, parsed.data);
}

/**
 * Permissions derived once per membership row as read: the membership cache answers the same object
 * until a change drops it, so every request of a member shares one derivation.
 */
const derived = new WeakMap<Membership, Permissions>();
function permissionsOf(membership: Membership): Permissions {
  let permissions = derived.get(membership);
  if (!permissions) {
    const { workspace, member } = membership;
    permissions = effectivePermissions(workspace.roles, {
      active: member.active,
      roles: member.roles,
      isWorkspaceManager: member.isManager,
    });
    derived.set(membership, permissions);
  }
  return permissions;
}

export function requireManager(access: WorkspaceAccess) {
  if (!access.permissions.canManageWorkspace) throw forbidden(MESSAGES.managerRequired);
}

/**
 * A right over customers' personal data (403 without it). Asked before anything is looked up, so a
 * member without it learns nothing, not even whether a profile exists.
 */
export function requireCustomerData(access: WorkspaceAccess, right: CustomerDataRight) {
  if (!can(access.permissions, 'customerData', right)) throw forbidden(CUSTOMER_DATA_MESSAGES[right]);
}
