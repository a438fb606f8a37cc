import { sql } from 'drizzle-orm';
import { formerNamesIn, type FormerNames } from '@shared/model/former-names';
import { changesSince, replayCopy, schemasChanged, stepsOf, type AppliedChange } from '@shared/model/pass';
import type { ModelOp } from '@shared/model/types';
import type { SchemaType } from '@shared/schemas/types';
import { rootOf, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';
import { modelOf } from './content-model';

/** An applied change with the id its kept values are stored under. */
export type StoredChange = AppliedChange & { id: string };

/** Changes kept per process; a change's operations never change once applied, so entries are never stale. */
const MAX_CACHED_CHANGES = 2000;
const cachedChanges = new WeakMap<Db, Map<string, StoredChange>>();

const keyOf = (workspaceId: string, version: number) => `${workspaceId}\n${version}`;

interface ChangeRow {
  id: string;
  version: number;
  ops: AppliedChange['plan']['ops'];
  reverts: string | null;
  reverted_version: number | null;
  reverted_ops: AppliedChange['plan']['ops'] | null;
}

async function readChanges(db: Db | Tx, workspaceId: string, from: number, to: number) {
  const found = rows<ChangeRow>(
    await db.execute(sql`
      select c.id, c.version, c.ops, c.reverts, r.version as reverted_version, r.ops as reverted_ops
      from content_model_changes c
      left join content_model_changes r on r.id = c.reverts
      where c.workspace_id = ${workspaceId} and c.version > ${from}::int and c.version <= ${to}::int
      order by c.version`),
  );
  const changes: StoredChange[] = [];
  for (const row of found) {
    const version = Number(row.version);
    const before = await modelOf(db, { id: workspaceId, modelVersion: version - 1 });
    const plan = stepsOf(before.doc, row.ops);
    changes.push({
      id: row.id,
      version,
      plan,
      schemas: schemasChanged(plan, row.reverts !== null),
      ...(row.reverts &&
        row.reverted_ops && {
          reverts: { id: row.reverts, version: Number(row.reverted_version), ops: row.reverted_ops },
        }),
    });
  }
  return changes;
}

/**
 * The changes a workspace's model went through after version `from` up to `to`, oldest first, each with
 * its model steps: what a row written in version `from` replays to be in version `to`. Read once per
 * process (outside a transaction: a change read inside one may not be committed yet).
 */
export async function changesBetween(
  db: Db | Tx,
  workspaceId: string,
  from: number,
  to: number,
): Promise<StoredChange[]> {
  if (to <= from) return [];
  const root = rootOf(db);
  let cache = cachedChanges.get(root);
  if (!cache) cachedChanges.set(root, (cache = new Map()));
  const cached: StoredChange[] = [];
  for (let version = from + 1; version <= to; version++) {
    const hit = cache.get(keyOf(workspaceId, version));
    if (!hit) break;
    cached.push(hit);
  }
  if (cached.length === to - from) return cached;
  const read = await readChanges(db, workspaceId, from + cached.length, to);
  if (root === db)
    for (const change of read) {
      if (cache.size >= MAX_CACHED_CHANGES) cache.delete(cache.keys().next().value!);
      cache.set(keyOf(workspaceId, change.version), change);
    }
  return [...cached, ...read];
}

/** The item a change kept values of. */
export interface KeptKey {
  changeId: string;
  schema: string;
  itemId: string;
}

export const keptKey = (key: KeptKey) => `${key.changeId}\t${key.schema}\t${key.itemId}`;

/** The values changes kept of items (operation index → values), by `keptKey`. */
export async function storedKeptOf(db: Db | Tx, keys: readonly KeptKey[]) {
  const kept = new Map<string, Record<string, unknown>>();
  if (keys.length === 0) return kept;
  const found = rows<{ change_id: string; schema: string; item_id: string; kept: Record<string, unknown> }>(
    await db.execute(sql`
      select k.change_id, k.schema, k.item_id, k.kept
      from content_model_kept k
      join json_to_recordset(${JSON.stringify(keys)}::json) as w("changeId" text, schema text, "itemId" text)
        on k.change_id = w."changeId" and k.schema = w.schema and k.item_id = w."itemId"`),
  );
  for (const row of found)
    kept.set(keptKey({ changeId: row.change_id, schema: row.schema, itemId: row.item_id }), row.kept);
  return kept;
}

/** A stored copy of item data (a stage copy, a history version) and the model version it is in. */
interface VersionedData {
  schema: string;
  data: Record<string, unknown>;
  modelVersion: number;
}

/**
 * Stage copies (`copy`) or history versions (`history`) in model version `target`: those written in an
 * older one as the changes since make them (`replayCopy`), in memory; the others as they are.
 */
export async function replayedCopies<R extends VersionedData>(
  db: Db | Tx,
  workspaceId: string,
  target: number,
  found: readonly R[],
  kind: 'copy' | 'history',
): Promise<R[]> {
  const behind = found.filter((row) => row.modelVersion < target);
  if (behind.length === 0) return [...found];
  const from = Math.min(...behind.map((row) => row.modelVersion));
  const changes = await changesBetween(db, workspaceId, from, target);
  return found.map((row) => {
    if (row.modelVersion >= target) return row;
    const since = changesSince(changes, row.schema, row.modelVersion);
    const data = since.length === 0 ? row.data : replayCopy(since, row.schema, row.data, kind);
    return { ...row, data, modelVersion: target };
  });
}

/** The changes with renames up to a model version, per process: a version's past never changes. */
const MAX_CACHED_RENAMES = 1000;
const cachedRenames = new WeakMap<Db, Map<string, Promise<{ version: number; ops: ModelOp[] }[]>>>();

function renamesUpTo(db: Db, workspaceId: string, modelVersion: number) {
  let cache = cachedRenames.get(db);
  if (!cache) cachedRenames.set(db, (cache = new Map()));
  const key = keyOf(workspaceId, modelVersion);
  let found = cache.get(key);
  if (!found) {
    if (cache.size >= MAX_CACHED_RENAMES) cache.delete(cache.keys().next().value!);
    found = db
      .execute(
        sql`select version, ops from content_model_changes
            where workspace_id = ${workspaceId} and version <= ${modelVersion}::int
              and ops @> '[{"op": "renameField"}]'::jsonb`,
      )
      .then((result) =>
        rows<{ version: number; ops: ModelOp[] }>(result).map((row) => ({
          ...row,
          version: Number(row.version),
        })),
      );
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

/**
 * The names the fields of `schema` had before renames, by the model version rows stored before each
 * rename are in: what SQL on stored rows reads for a field until the migration has reached them all.
 */
export async function formerNamesOf(
  db: Db,
  workspaceId: string,
  modelVersion: number,
  schema: SchemaType,
): Promise<FormerNames> {
  const renames = await renamesUpTo(db, workspaceId, modelVersion);
  if (renames.length === 0) return new Map();
  return formerNamesIn(
    renames,
    schema.name,
    schema.fields.map((field) => field.key),
  );
}
