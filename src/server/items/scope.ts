import { can, type Action } from '@shared/permissions/permissions';
import type { ContentModel } from '@shared/model/registry';
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
  const enabled = schemasReadable(access.model, workspace.basics.domains, isManager);
  if (isManager) derived.manager = enabled;
  else derived.member = enabled;
  return enabled;
}

function schemasReadable(
  model: ContentModel,
  domains: readonly string[],
  isManager: boolean,
): EnabledSchemas {
  const list = model.schemasOfDomains(domains.filter((name) => isManager || !model.domain(name)?.admin));
  return { list, names: new Set(list.map((s) => s.name)) };
}

/** The names of the schemas the caller may read in the workspace: those `schemaIn` resolves. */
export const readableSchemaNames = (access: WorkspaceAccess): ReadonlySet<string> =>
  readableSchemaNamesOf(access.model, access.workspace.basics.domains, access.permissions.canManageWorkspace);

/**
 * The schemas a member may read, told by the workspace's model and domains and whether the member manages
 * it (for checks of many members in one query): one set per such triple, shared by every member it fits.
 */
export function readableSchemaNamesOf(
  model: ContentModel,
  domains: readonly string[],
  isManager: boolean,
): ReadonlySet<string> {
  let byDomains = readableByModel.get(model);
  if (!byDomains) readableByModel.set(model, (byDomains = new Map()));
  const key = `${isManager}\n${domains.join('\n')}`;
  let names = byDomains.get(key);
  if (!names) {
    if (byDomains.size >= 1000) byDomains.clear();
    byDomains.set(key, (names = schemasReadable(model, domains, isManager).names));
  }
  return names;
}
const readableByModel = new WeakMap<ContentModel, Map<string, ReadonlySet<string>>>();

/**
 * Resolves a schema inside a workspace the caller belongs to. Unknown schemas and schemas of domains the
 * workspace has not enabled answer 404, like things that do not exist.
 */
export function schemaIn(access: WorkspaceAccess, schemaName: string): SchemaScope {
  const schema = access.model.schema(schemaName);
  if (!schema) throw notFound(`Schema "${schemaName}" not found`);
  const domain = access.model.domainOf(schemaName);
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
