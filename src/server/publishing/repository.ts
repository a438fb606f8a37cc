import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { published } from '../db/schema';
import type { ItemKey, ItemRow } from '../items/repository';

const ofItem = (key: ItemKey) =>
  and(eq(published.workspaceId, key.workspaceId), eq(published.schema, key.schema), eq(published.id, key.id));

const copyColumns = {
  schema: published.schema,
  id: published.id,
  stage: published.stage,
  version: published.version,
  publishedAt: published.publishedAt,
  publishedBy: published.publishedBy,
};

/** The stage copies of some items of one workspace (without their data). */
export async function copiesOf(
  db: Db | Tx,
  workspaceId: string,
  keys: readonly { schema: string; id: string }[],
) {
  if (keys.length === 0) return [];
  const rows = await db
    .select(copyColumns)
    .from(published)
    .where(
      and(
        eq(published.workspaceId, workspaceId),
        inArray(published.schema, [...new Set(keys.map((k) => k.schema))]),
        inArray(published.id, [...new Set(keys.map((k) => k.id))]),
      ),
    );
  const wanted = new Set(keys.map((k) => `${k.schema}/${k.id}`));
  return rows.filter((r) => wanted.has(`${r.schema}/${r.id}`));
}

/** Copies the item's current version to a stage, replacing an older copy. */
export async function upsertCopy(tx: Tx, item: ItemRow, stage: string, by: string, at: Date) {
  const values = {
    workspaceId: item.workspaceId,
    schema: item.schema,
    id: item.id,
    stage,
    version: item.version,
    itemVersion: item.version,
    data: item.data,
    refs: item.refs,
    publishedAt: at,
    publishedBy: by,
  };
  await tx
    .insert(published)
    .values(values)
    .onConflictDoUpdate({
      target: [published.workspaceId, published.schema, published.id, published.stage],
      set: {
        version: values.version,
        itemVersion: values.itemVersion,
        data: values.data,
        refs: values.refs,
        publishedAt: at,
        publishedBy: by,
      },
    });
}

export async function deleteCopy(tx: Tx, key: ItemKey, stage: string) {
  const rows = await tx
    .delete(published)
    .where(and(ofItem(key), eq(published.stage, stage)))
    .returning({ id: published.id });
  return rows.length > 0;
}
