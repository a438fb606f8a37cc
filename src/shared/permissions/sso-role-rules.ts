import type { RoleRule } from '@shared/api/sso';

/** A claim holds a value when it equals it or, for a list (groups), contains it. */
function claimHolds(claim: unknown, value: string): boolean {
  if (Array.isArray(claim)) return claim.some((entry) => claimHolds(entry, value));
  if (typeof claim === 'string' || typeof claim === 'number' || typeof claim === 'boolean')
    return String(claim) === value;
  return false;
}

/**
 * The roles and manager right the matching rules grant, every matching rule counted (not the first
 * only); roles the workspace no longer has are left out.
 */
export function rolesFromClaims(
  rules: readonly RoleRule[],
  claims: Record<string, unknown>,
  workspaceRoles: Record<string, unknown>,
): { roles: string[]; isWorkspaceManager: boolean } {
  const roles = new Set<string>();
  let isWorkspaceManager = false;
  for (const rule of rules) {
    if (!claimHolds(claims[rule.claim], rule.value)) continue;
    for (const role of rule.roles) if (Object.hasOwn(workspaceRoles, role)) roles.add(role);
    isWorkspaceManager ||= rule.isWorkspaceManager;
  }
  return { roles: [...roles].sort(), isWorkspaceManager };
}
