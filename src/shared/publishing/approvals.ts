import { approverRoleIds, type Roles } from '../permissions/permissions';
import { ownValue } from '../text/reserved-names';

/** The roles that must approve a schema, by role id (stored role maps keep no order). */
export const approversOf = (roles: Roles, schema: string): string[] => approverRoleIds(roles, schema).sort();

/** The roles that must still approve the current version, by role id (spec §4: cleared role by role). */
export function remainingApprovals(
  roles: Roles,
  schema: string,
  approvedRoleIds: readonly string[],
): string[] {
  const approved = new Set(approvedRoleIds);
  return approversOf(roles, schema).filter((roleId) => !approved.has(roleId));
}

/** Fully approved when no approver role remains; a schema nobody must approve is always fully approved. */
export const isFullyApproved = (remaining: readonly string[]) => remaining.length === 0;

/** The roles the member holds that must approve this schema. */
export function myApproverRoles(roles: Roles, schema: string, memberRoleIds: readonly string[]): string[] {
  const held = new Set(memberRoleIds);
  return approversOf(roles, schema).filter((roleId) => held.has(roleId));
}

/** The spec's approver role label comes from the role id: the role's name, else the id itself. */
export const approverRoleLabel = (roles: Roles, roleId: string) => ownValue(roles, roleId)?.name ?? roleId;

/** Whether the current version waits on one of the member's roles. */
export function needsApprovalFrom(remaining: readonly string[], memberRoleIds: readonly string[]): boolean {
  return remaining.some((roleId) => memberRoleIds.includes(roleId));
}
