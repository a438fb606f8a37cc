import { can } from '@shared/permissions/permissions';
import { and, eq, type AnyColumn } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { approvals, items, itemVersions, releaseEntries } from '../db/schema';
import { AppError } from '../http/errors';
import type { ItemRow } from '../items/repository';
import { schemaIn, type SchemaScope } from '../items/scope';
import type { VersionContent } from '../publishing/repository';
import { upcastItemRows } from '../items/upcast';
import { assertPublishable } from '../publishing/service';
import type { WorkspaceAccess } from '../workspaces/access';
import type { ReleaseEntryRow } from './repository';

/** An entry as it stands: the item, the content a publish would copy, and what keeps it from going out. */
export interface EntryState {
  entry: ReleaseEntryRow;
  scope: SchemaScope | undefined;
  item: ItemRow | undefined;
  /** The version a publish would copy (pinned, else the current one). */
  version: number | null;
  content: VersionContent | undefined;
  fullyApproved: boolean;
  canPublish: boolean;
  blockers: string[];
}

const messageOf = (err: unknown) => {
  if (err instanceof AppError) return err.message;
  throw err;
};

const keyOf = (schema: string, id: string) => `${schema}/${id}`;

/** The joins from a release's entries to its items' rows (same workspace, schema and id). */
const ofRelease = (release: { workspaceId: string; id: string }) =>
  and(eq(releaseEntries.workspaceId, release.workspaceId), eq(releaseEntries.releaseId, release.id));

/** The join of an entry to the rows of its pinned version in a table keyed like item_versions or approvals. */
const onPinnedVersion = (columns: {
  workspaceId: AnyColumn;
  schema: AnyColumn;
  itemId: AnyColumn;
  version: AnyColumn;
}) =>
  and(
    eq(columns.workspaceId, releaseEntries.workspaceId),
    eq(columns.schema, releaseEntries.schema),
    eq(columns.itemId, releaseEntries.itemId),
    eq(columns.version, releaseEntries.version),
  );

/**
 * What the release's entries stand on, read in three statements whatever their number: the items
 * (locked until the transaction ends with `lock`), and the content and approvals of pinned versions.
 */
async function loadEntryData(db: Db | Tx, release: { workspaceId: string; id: string }, lock: boolean) {
  const itemQuery = db
    .select({ item: items })
    .from(releaseEntries)
    .innerJoin(
      items,
      and(
        eq(items.workspaceId, releaseEntries.workspaceId),
        eq(items.schema, releaseEntries.schema),
        eq(items.id, releaseEntries.itemId),
      ),
    )
    .where(ofRelease(release));
  const itemRows = lock ? await itemQuery.for('update', { of: items }) : await itemQuery;
  const versionRows = await db
    .select({
      schema: itemVersions.schema,
      itemId: itemVersions.itemId,
      version: itemVersions.num,
      data: itemVersions.data,
      refs: itemVersions.refs,
      modelVersion: itemVersions.modelVersion,
    })
    .from(releaseEntries)
    .innerJoin(itemVersions, onPinnedVersion({ ...itemVersions, version: itemVersions.num }))
    .where(ofRelease(release));
  const approvalRows = await db
    .select({ schema: approvals.schema, itemId: approvals.itemId, roleId: approvals.roleId })
    .from(releaseEntries)
    .innerJoin(approvals, onPinnedVersion(approvals))
    .where(ofRelease(release));
  const pinnedApprovals = new Map<string, string[]>();
  for (const row of approvalRows) {
    const key = keyOf(row.schema, row.itemId);
    pinnedApprovals.set(key, [...(pinnedApprovals.get(key) ?? []), row.roleId]);
  }
  return {
    items: new Map(itemRows.map(({ item }) => [keyOf(item.schema, item.id), item])),
    versions: new Map(versionRows.map((v) => [keyOf(v.schema, v.itemId), v as VersionContent])),
    pinnedApprovals,
  };
}

/**
 * What a publish of each entry would do and what blocks it: the same checks as publishing one item
 * (rights, approvals of the version to publish, an incomplete current version), collected instead of
 * thrown. With `lock` (in a transaction), the items are locked until it ends.
 */
export async function entryStates(
  db: Db | Tx,
  access: WorkspaceAccess,
  release: { workspaceId: string; id: string },
  entries: ReleaseEntryRow[],
  lock = false,
): Promise<EntryState[]> {
  const data = await loadEntryData(db, release, lock);
  // Incomplete or not as the current model has it (a model change's migration may not have reached it).
  for (const item of await upcastItemRows(db, access, [...data.items.values()]))
    data.items.set(keyOf(item.schema, item.id), item);
  const scopes = new Map<string, SchemaScope | string>();
  const scopeOf = (schema: string) => {
    let scope = scopes.get(schema);
    if (scope === undefined) {
      try {
        scope = schemaIn(access, schema);
      } catch (err) {
        scope = messageOf(err);
      }
      scopes.set(schema, scope);
    }
    return scope;
  };
  return entries.map((entry) => {
    const key = keyOf(entry.schema, entry.itemId);
    const blockers: string[] = [];
    const found = scopeOf(entry.schema);
    const scope = typeof found === 'string' ? undefined : found;
    if (typeof found === 'string') blockers.push(found);
    const canPublish = Boolean(scope) && can(access.permissions, 'publish', entry.schema);
    if (scope && !canPublish)
      blockers.push(`You do not have permission to publish ${scope.schema.pluralTitle}`);
    const item = data.items.get(key);
    const state = { entry, scope, item, canPublish, blockers, content: undefined, version: null };
    if (entry.action === 'unpublish') return { ...state, fullyApproved: true };
    if (!item) {
      blockers.push('This item no longer exists');
      return { ...state, fullyApproved: false };
    }
    const version = entry.version ?? item.version;
    const isCurrent = version === item.version;
    const content = isCurrent ? item : data.versions.get(key);
    if (!content) {
      blockers.push(`Version ${version} of this item does not exist`);
      return { ...state, version, fullyApproved: false };
    }
    const approvedRoles = isCurrent ? item.approvedRoles : (data.pinnedApprovals.get(key) ?? []);
    let fullyApproved = true;
    if (scope) {
      try {
        // Only the current version is known to be incomplete: history keeps no validation state.
        assertPublishable(scope, { ...item, approvedRoles, hasErrors: isCurrent && item.hasErrors });
      } catch (err) {
        blockers.push(messageOf(err));
        fullyApproved = !(err instanceof AppError && err.details);
      }
    }
    return { ...state, version, content, fullyApproved };
  });
}
