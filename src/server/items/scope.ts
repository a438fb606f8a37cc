import { can, type Action } from '@shared/permissions/permissions';
import { domainOfSchema, getDomain, getSchema, schemasOfDomains } from '@shared/schemas/catalogue';
import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/repository';
import { AppError, forbidden, notFound } from '../http/errors';
import { loadWorkspaceAccess, type WorkspaceAccess } from '../workspaces/access';
import { schemaInWorkspace } from './locales';

/** The caller's standing in a workspace plus the schema a route names. */
export interface SchemaScope extends WorkspaceAccess {
  schema: SchemaType;
}

const ACTION_WORDS: Record<Action, string> = { edit: 'edit', publish: 'publish', approve: 'approve' };

/**
 * Schemas of the workspace's enabled domains (basics.domains). Domains with the admin flag are for
 * workspace managers only, as the app shows them. Derived once per workspace row as read (the
 * membership cache answers the same row until a change drops it), for managers and for the others.
 */
export function enabledSchemas(access: WorkspaceAccess): SchemaType[] {
  return enabledSchemaNames(access).list;
}

interface EnabledSchemas {
  list: SchemaType[];
  names: ReadonlySet<string>;
}
const enabledByWorkspace = new WeakMap<object, { manager?: EnabledSchemas; member?: EnabledSchemas }>();

function enabledSchemaNames(access: WorkspaceAccess): EnabledSchemas {
  const { workspace } = access;
  const isManager = access.permissions.canManageWorkspace;
  let derived = enabledByWorkspace.get(workspace);
  if (!derived) enabledByWorkspace.set(workspace, (derived = {}));
  const known = isManager ? derived.manager : derived.member;
  if (known) return known;
  const enabled = schemasReadable(workspace.basics.domains, isManager);
  if (isManager) derived.manager = enabled;
  else derived.member = enabled;
  return enabled;
}

function schemasReadable(domains: readonly string[], isManager: boolean): EnabledSchemas {
  const list = schemasOfDomains(domains.filter((name) => isManager || !getDomain(name)?.admin));
  return { list, names: new Set(list.map((s) => s.name)) };
}

/** The names of the schemas the caller may read in the workspace: those `schemaIn` resolves. */
export const readableSchemaNames = (access: WorkspaceAccess): ReadonlySet<string> =>
  readableSchemaNamesOf(access.workspace.basics.domains, access.permissions.canManageWorkspace);

/**
 * The schemas a member may read, told by the workspace's domains and whether the member manages it (for
 * checks of many members in one query): one set per such pair, shared by every member it fits.
 */
export function readableSchemaNamesOf(domains: readonly string[], isManager: boolean): ReadonlySet<string> {
  const key = `${isManager}\n${domains.join('\n')}`;
  let names = readableByDomains.get(key);
  if (!names) {
    if (readableByDomains.size >= 1000) readableByDomains.clear();
    readableByDomains.set(key, (names = schemasReadable(domains, isManager).names));
  }
  return names;
}
const readableByDomains = new Map<string, ReadonlySet<string>>();

/**
 * Resolves a schema inside a workspace the caller belongs to. Unknown schemas and schemas of domains the
 * workspace has not enabled answer 404, like things that do not exist.
 */
export function schemaIn(access: WorkspaceAccess, schemaName: string): SchemaScope {
  const schema = getSchema(schemaName);
  if (!schema) throw notFound(`Schema "${schemaName}" not found`);
  const domain = domainOfSchema(schemaName);
  if (!domain || !enabledSchemaNames(access).names.has(schemaName)) {
    throw new AppError('domain_not_available', `Domain "${domain?.name ?? schemaName}" not available`);
  }
  return { ...access, schema: schemaInWorkspace(access.workspace, schema) };
}

export async function loadSchemaScope(
  ctx: AppContext,
  caller: UserRow | null,
  workspaceId: string,
  schemaName: string,
): Promise<SchemaScope> {
  return schemaIn(await loadWorkspaceAccess(ctx, caller, workspaceId), schemaName);
}

/** The first line of every service that changes something: `can(...)` or 403 with a message naming the right. */
export function requireRight(scope: SchemaScope, action: Action) {
  if (!can(scope.permissions, action, scope.schema.name)) {
    throw forbidden(`You do not have permission to ${ACTION_WORDS[action]} ${scope.schema.pluralTitle}`);
  }
}
