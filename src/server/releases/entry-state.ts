import { can } from '@shared/permissions/permissions';
import type { Db, Tx } from '../db/client';
import { AppError } from '../http/errors';
import { findItem, lockItem, type ItemRow } from '../items/repository';
import { schemaIn, type SchemaScope } from '../items/scope';
import type { VersionContent } from '../publishing/repository';
import { assertPublishable } from '../publishing/service';
import type { WorkspaceAccess } from '../workspaces/access';
import { approvedRolesOf, versionContent, type ReleaseEntryRow } from './repository';

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

/**
 * What a publish of the entry would do and what blocks it: the same checks as publishing one item
 * (rights, approvals of the version to publish, an incomplete current version), collected instead of
 * thrown. With `tx`, the item is locked until the transaction ends.
 */
export async function entryState(
  db: Db | Tx,
  access: WorkspaceAccess,
  entry: ReleaseEntryRow,
  tx?: Tx,
): Promise<EntryState> {
  const blockers: string[] = [];
  let scope: SchemaScope | undefined;
  try {
    scope = schemaIn(access, entry.schema);
  } catch (err) {
    blockers.push(messageOf(err));
  }
  const canPublish = Boolean(scope) && can(access.permissions, 'publish', entry.schema);
  if (scope && !canPublish)
    blockers.push(`You do not have permission to publish ${scope.schema.pluralTitle}`);
  const key = { workspaceId: entry.workspaceId, schema: entry.schema, id: entry.itemId };
  const item = tx ? await lockItem(tx, key) : await findItem(db, key);
  const state = { entry, scope, item, canPublish, blockers, content: undefined, version: null };
  if (entry.action === 'unpublish') return { ...state, fullyApproved: true };
  if (!item) {
    blockers.push('This item no longer exists');
    return { ...state, fullyApproved: false };
  }
  const version = entry.version ?? item.version;
  const isCurrent = version === item.version;
  const content = isCurrent ? item : await versionContent(db, key, version);
  if (!content) {
    blockers.push(`Version ${version} of this item does not exist`);
    return { ...state, version, fullyApproved: false };
  }
  const approvedRoles = isCurrent ? item.approvedRoles : await approvedRolesOf(db, key, version);
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
}
