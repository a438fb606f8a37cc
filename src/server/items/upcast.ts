import { changesSince, replayItem } from '@shared/model/pass';
import type { Basics } from '@shared/api/workspaces';
import type { ContentModel } from '@shared/model/registry';
import type { Db, Tx } from '../db/client';
import { changesBetween, keptKey, storedKeptOf } from '../workspaces/model-changes';
import type { ItemRow } from './repository';

/** What replaying a row needs of the caller's workspace: its id, locales and model. */
export interface ModelScope {
  workspace: { id: string; basics: Pick<Basics, 'locales'> };
  model: ContentModel;
}

/** Rows already replayed, by the row object read (the item cache hands out the same objects). */
const replayedRows = new WeakMap<ItemRow, { version: number; row: ItemRow }>();

/**
 * Item rows in the caller's model version. A row written in an older version (the background migration
 * of a model change has not reached it yet) is answered as the changes since make it, in memory: its data
 * in the new shape, and whether it is incomplete under the new model; `modelVersion` then names the
 * version it is in. A row written in a newer version than the caller knows is left as it is.
 */
export async function upcastItemRows<R extends ItemRow>(
  db: Db | Tx,
  scope: ModelScope,
  found: readonly R[],
): Promise<R[]> {
  const target = scope.model.version;
  const behind = found.filter(
    (row) => row.modelVersion < target && replayedRows.get(row)?.version !== target,
  );
  if (behind.length === 0) return found.map((row) => replayedOf(row, target));
  const from = Math.min(...behind.map((row) => row.modelVersion));
  const changes = await changesBetween(db, scope.workspace.id, from, target);
  // A revert of a change whose migration went past the row puts back what that change stored.
  const kept = await storedKeptOf(
    db,
    behind.flatMap((row) =>
      changesSince(changes, row.schema, row.modelVersion).flatMap(({ reverts }) =>
        reverts && reverts.version <= row.modelVersion
          ? [{ changeId: reverts.id, schema: row.schema, itemId: row.id }]
          : [],
      ),
    ),
  );
  for (const row of behind) {
    const since = changesSince(changes, row.schema, row.modelVersion);
    const replayed =
      since.length === 0
        ? { data: row.data, hasErrors: row.hasErrors }
        : replayItem(since, row.schema, row.data, scope.workspace.basics, scope.model.doc, (changeId) =>
            kept.get(keptKey({ changeId, schema: row.schema, itemId: row.id })),
          );
    replayedRows.set(row, {
      version: target,
      row: { ...row, data: replayed.data, hasErrors: replayed.hasErrors, modelVersion: target },
    });
  }
  return found.map((row) => replayedOf(row, target));
}

function replayedOf<R extends ItemRow>(row: R, target: number): R {
  if (row.modelVersion >= target) return row;
  const replayed = replayedRows.get(row);
  return replayed && replayed.version === target ? ({ ...row, ...replayed.row } as R) : row;
}

export async function upcastItemRow<R extends ItemRow>(db: Db | Tx, scope: ModelScope, row: R): Promise<R>;
export async function upcastItemRow<R extends ItemRow>(
  db: Db | Tx,
  scope: ModelScope,
  row: R | undefined,
): Promise<R | undefined>;
/** One item row in the caller's model version (see upcastItemRows). */
export async function upcastItemRow<R extends ItemRow>(db: Db | Tx, scope: ModelScope, row: R | undefined) {
  if (!row) return row;
  const [replayed] = await upcastItemRows(db, scope, [row]);
  return replayed;
}

/**
 * Data a client read in an older model version and saves now (it sent that version): brought to the
 * caller's model as a stored row would be, so a save that straddles a model change keeps its values.
 */
export async function dataInCallersModel(
  db: Db | Tx,
  scope: ModelScope & { schema: { name: string } },
  data: Record<string, unknown>,
  from: number | undefined,
) {
  const target = scope.model.version;
  if (from === undefined || from >= target) return data;
  const since = changesSince(
    await changesBetween(db, scope.workspace.id, from, target),
    scope.schema.name,
    from,
  );
  if (since.length === 0) return data;
  return replayItem(since, scope.schema.name, data, scope.workspace.basics, scope.model.doc).data;
}
