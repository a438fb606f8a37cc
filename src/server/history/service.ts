import { ITEM_MESSAGES } from '@shared/api/items';
import { localeChanges } from '@shared/locales/changes';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { keyOf } from '../items/service';
import type { SchemaScope } from '../items/scope';
import { writerName } from '../journal/marquee-actor';
import { replayedCopies } from '../workspaces/model-changes';
import * as repo from './repository';

/**
 * History versions with the fields renamed since each was saved under their new names (their values
 * stay as they were saved).
 */
export const inCallersModel = <R extends { data: Record<string, unknown>; modelVersion: number }>(
  ctx: AppContext,
  scope: SchemaScope,
  versions: readonly R[],
) =>
  replayedCopies(
    ctx.db,
    scope.workspace.id,
    scope.model.version,
    versions.map((version) => ({ ...version, schema: scope.schema.name })),
    'history',
  );

/**
 * The change log of an item, newest first (spec §3 History version entry). Any member may read it, and
 * it outlives the item: a deleted item's history stays readable.
 */
export async function listHistory(ctx: AppContext, scope: SchemaScope, id: string) {
  const rows = await repo.listVersions(ctx.db, keyOf(scope, id));
  if (rows.length === 0) throw notFound(ITEM_MESSAGES.instanceNotFound);
  const changes = await changesByVersion(ctx, scope, id);
  return rows.map((r) => ({
    id: String(r.num),
    num: r.num,
    at: r.at.toISOString(),
    by: r.by,
    byName: writerName(r.by, r.memberName, r.userName),
    thisVersion: r.num,
    previousVersion: r.num > 1 ? r.num - 1 : null,
    ...(changes && { changes: changes(r.num) }),
  }));
}

/**
 * Where the schema has localised fields: what each version changed against the one before, per locale
 * (the first version against nothing). Versions' data is read only then.
 */
async function changesByVersion(ctx: AppContext, scope: SchemaScope, id: string) {
  const { schema } = scope;
  const locales = schema.locales;
  if (!locales) return undefined;
  const found = await repo.listVersionData(ctx.db, keyOf(scope, id));
  const versions = await inCallersModel(ctx, scope, found);
  const data = new Map(versions.map((version) => [version.num, version.data]));
  return (num: number) => localeChanges({ ...schema, locales }, data.get(num - 1) ?? {}, data.get(num) ?? {});
}

/** The full data of one version, for the change log and to compare any two versions. */
export async function getVersion(ctx: AppContext, scope: SchemaScope, id: string, num: number) {
  const key = keyOf(scope, id);
  const row = await repo.findVersion(ctx.db, key, num);
  if (!row) {
    const any = await repo.listVersions(ctx.db, key);
    throw notFound(any.length === 0 ? ITEM_MESSAGES.instanceNotFound : ITEM_MESSAGES.versionNotFound);
  }
  const [version] = await inCallersModel(ctx, scope, [row.version]);
  return {
    num: version.num,
    at: version.at.toISOString(),
    by: version.by,
    byName: writerName(row.version.by, row.memberName, row.userName),
    data: version.data,
    _references: row.version.refs,
  };
}
