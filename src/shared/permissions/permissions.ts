import { ITEM_MESSAGES } from '../api/items';
import type { SchemaType } from '../schemas/types';
import { ownValue } from '../text/reserved-names';
import { CUSTOMER_DATA_RIGHTS, type CustomerDataRight } from './customer-data-rights';

/** Spec §3 Workspace roles and §6: a role lists the schema names it may edit, publish and must approve. */
export interface Role {
  name: string;
  canEdit: string[];
  canPublish: string[];
  mustApprove: string[];
  /** When not empty, the role edits only these locales' values of its schemas (none of the shared fields). */
  locales?: string[];
  /** What the role may do with customers' personal data; none when missing. */
  customerData?: CustomerDataRight[];
}

export type Roles = Record<string, Role>;

export interface MemberRoles {
  active: boolean;
  roles: string[];
  isWorkspaceManager: boolean;
}

/** The derived `__permissions` of a user in a workspace: unions across the member's roles. */
export interface Permissions {
  canEdit: string[];
  canPublish: string[];
  canApprove: string[];
  canManageWorkspace: boolean;
  roles: string[];
  /** Schemas the member edits in some locales only (every role granting the edit is locale-limited). */
  editLocales?: Record<string, string[]>;
  /** The member's rights over customer data: the union across their roles, every right for a manager. */
  customerData: CustomerDataRight[];
}

export type Action = 'edit' | 'publish' | 'approve';

const NO_PERMISSIONS: Permissions = Object.freeze({
  canEdit: [],
  canPublish: [],
  canApprove: [],
  canManageWorkspace: false,
  roles: [],
  customerData: [],
}) as Permissions;

/** A role's customer data rights as stored: known ones, once each, in their order, reading added when implied. */
export function normaliseCustomerData(rights: readonly string[] | undefined): CustomerDataRight[] {
  const granted = new Set(rights ?? []);
  if (granted.has('export') || granted.has('erase')) granted.add('read');
  return CUSTOMER_DATA_RIGHTS.filter((right) => granted.has(right));
}

/** Effective lists of a member: the union of their roles' lists; nothing for an inactive or missing member. */
export function effectivePermissions(roles: Roles, member: MemberRoles | undefined | null): Permissions {
  if (!member || !member.active) return NO_PERMISSIONS;
  const canEdit = new Set<string>();
  const canPublish = new Set<string>();
  const canApprove = new Set<string>();
  const customerData: string[] = [];
  const held: string[] = [];
  for (const roleId of member.roles) {
    const role = ownValue(roles, roleId);
    if (!role) continue;
    held.push(roleId);
    role.canEdit.forEach((s) => canEdit.add(s));
    role.canPublish.forEach((s) => canPublish.add(s));
    role.mustApprove.forEach((s) => canApprove.add(s));
    customerData.push(...(role.customerData ?? []));
  }
  const editLocales = localeLimits(roles, held);
  return {
    canEdit: [...canEdit].sort(),
    canPublish: [...canPublish].sort(),
    canApprove: [...canApprove].sort(),
    canManageWorkspace: member.isWorkspaceManager,
    roles: held,
    customerData: member.isWorkspaceManager ? [...CUSTOMER_DATA_RIGHTS] : normaliseCustomerData(customerData),
    ...(editLocales ? { editLocales } : {}),
  };
}

/**
 * Per schema, the locales a member may edit when each held role granting its edit is limited to
 * locales (the union of their lists); a schema some unlimited role grants is not limited.
 */
function localeLimits(roles: Roles, held: readonly string[]): Record<string, string[]> | undefined {
  const limited = new Map<string, Set<string>>();
  const unlimited = new Set<string>();
  for (const roleId of held) {
    const role = ownValue(roles, roleId)!;
    for (const schema of role.canEdit) {
      if (!role.locales?.length) unlimited.add(schema);
      else role.locales.forEach((tag) => limited.set(schema, (limited.get(schema) ?? new Set()).add(tag)));
    }
  }
  const entries = [...limited].filter(([schema]) => !unlimited.has(schema));
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([schema, tags]) => [schema, [...tags].sort()]));
}

/** The locales a member may edit values of in a schema, or undefined when every locale. */
export function editableLocales(permissions: Permissions, schema: string): string[] | undefined {
  const limits = permissions.editLocales;
  return limits && Object.hasOwn(limits, schema) ? limits[schema] : undefined;
}

const LISTS: Record<Action, keyof Pick<Permissions, 'canEdit' | 'canPublish' | 'canApprove'>> = {
  edit: 'canEdit',
  publish: 'canPublish',
  approve: 'canApprove',
};

/**
 * The spec's $can(action, schemaType): true if the schema is in the list for that action; and
 * `can(permissions, 'customerData', right)`: true if the member holds that right over customer data.
 */
export function can(permissions: Permissions, action: Action, schema: string): boolean;
export function can(permissions: Permissions, action: 'customerData', right: CustomerDataRight): boolean;
export function can(permissions: Permissions, action: Action | 'customerData', what: string): boolean {
  if (action === 'customerData') return permissions.customerData.includes(what as CustomerDataRight);
  return permissions[LISTS[action]].includes(what);
}

/**
 * Why the member may not delete an item of the schema, or null when they may. A delete takes the whole
 * item: every locale's values, so it needs the edit right in every locale; and, for an item published
 * in any stage, its copies there, so it needs the right to unpublish it (publish).
 */
export function deleteRefusal(
  permissions: Permissions,
  { name: schema, pluralTitle: what }: Pick<SchemaType, 'name' | 'pluralTitle'>,
  isPublished: boolean,
): string | null {
  if (!can(permissions, 'edit', schema)) return `You do not have permission to edit ${what}`;
  const locales = editableLocales(permissions, schema);
  if (locales) return ITEM_MESSAGES.deleteNeedsEveryLocale(what, locales);
  if (isPublished && !can(permissions, 'publish', schema)) return ITEM_MESSAGES.deleteNeedsPublish(what);
  return null;
}

/** Roles whose mustApprove list holds the schema: each must approve a version before it is fully approved. */
export function approverRoleIds(roles: Roles, schema: string): string[] {
  return Object.entries(roles)
    .filter(([, role]) => role.mustApprove.includes(schema))
    .map(([id]) => id);
}

/**
 * Spec §5: when saving a workspace, each role's edit, publish and approve lists and each member's role
 * list are trimmed to schemas and roles that still exist.
 */
export function trimRoles(roles: Roles, existingSchemas: readonly string[]): Roles {
  const known = new Set(existingSchemas);
  const keep = (list: string[]) => [...new Set(list.filter((s) => known.has(s)))];
  return Object.fromEntries(
    Object.entries(roles).map(([id, role]) => [
      id,
      {
        ...role,
        canEdit: keep(role.canEdit),
        canPublish: keep(role.canPublish),
        mustApprove: keep(role.mustApprove),
        ...(role.locales ? { locales: [...new Set(role.locales)] } : {}),
        customerData: normaliseCustomerData(role.customerData),
      },
    ]),
  );
}

export function trimMemberRoles(memberRoles: readonly string[], roles: Roles): string[] {
  return [...new Set(memberRoles.filter((id) => Object.hasOwn(roles, id)))];
}
