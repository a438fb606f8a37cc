import { and, count, desc, eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { itemVersions, releaseEntries, releases } from '../db/schema';
import type { ItemKey } from '../items/repository';
import type { VersionContent } from '../publishing/repository';

export type ReleaseRow = typeof releases.$inferSelect;
export type ReleaseEntryRow = typeof releaseEntries.$inferSelect;

const byId = (workspaceId: string, id: string) =>
  and(eq(releases.workspaceId, workspaceId), eq(releases.id, id));
const entriesOf = (workspaceId: string, releaseId: string) =>
  and(eq(releaseEntries.workspaceId, workspaceId), eq(releaseEntries.releaseId, releaseId));

const entryCount = sql<number>`(
  select count(*)::int from ${releaseEntries} e
  where e.workspace_id = ${releases.workspaceId} and e.release_id = ${releases.id})`;

/** The workspace's releases, last changed first, with their entry counts. */
export async function listReleases(db: Db, workspaceId: string) {
  return db
    .select({ release: releases, entryCount })
    .from(releases)
    .where(eq(releases.workspaceId, workspaceId))
    .orderBy(desc(releases.updatedAt), desc(releases.id))
    .limit(200);
}

/** A release, locked for the rest of the transaction when read with `tx` and `lock`. */
export async function findRelease(db: Db | Tx, workspaceId: string, id: string, lock = false) {
  const query = db.select().from(releases).where(byId(workspaceId, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertRelease(tx: Tx, row: typeof releases.$inferInsert) {
  const [inserted] = await tx.insert(releases).values(row).returning();
  return inserted;
}

export async function updateRelease(
  tx: Tx,
  workspaceId: string,
  id: string,
  patch: Partial<typeof releases.$inferInsert>,
) {
  const [row] = await tx.update(releases).set(patch).where(byId(workspaceId, id)).returning();
  return row;
}

export async function deleteRelease(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx.delete(releases).where(byId(workspaceId, id)).returning();
  return row;
}

export async function countEntries(db: Db | Tx, workspaceId: string, releaseId: string) {
  const [row] = await db.select({ n: count() }).from(releaseEntries).where(entriesOf(workspaceId, releaseId));
  return Number(row?.n ?? 0);
}

/** A release's entries in a stable order (schema, then item id): the order a publish works through. */
export async function listEntries(db: Db | Tx, workspaceId: string, releaseId: string) {
  return db
    .select()
    .from(releaseEntries)
    .where(entriesOf(workspaceId, releaseId))
    .orderBy(releaseEntries.schema, releaseEntries.itemId);
}

/** The schemas of a release's entries, each once. */
export async function entrySchemas(db: Db | Tx, workspaceId: string, releaseId: string) {
  const found = await db
    .selectDistinct({ schema: releaseEntries.schema })
    .from(releaseEntries)
    .where(entriesOf(workspaceId, releaseId));
  return found.map((r) => r.schema);
}

/** Adds entries, or changes the version and action of entries already there. */
export async function upsertEntries(tx: Tx, rows: (typeof releaseEntries.$inferInsert)[]) {
  if (rows.length === 0) return;
  await tx
    .insert(releaseEntries)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        releaseEntries.workspaceId,
        releaseEntries.releaseId,
        releaseEntries.schema,
        releaseEntries.itemId,
      ],
      set: {
        version: sql`excluded.version`,
        action: sql`excluded.action`,
        addedBy: sql`excluded.added_by`,
        addedByName: sql`excluded.added_by_name`,
      },
    });
}

export async function deleteEntries(tx: Tx, workspaceId: string, releaseId: string, itemIds: string[]) {
  return tx
    .delete(releaseEntries)
    .where(and(entriesOf(workspaceId, releaseId), inArray(releaseEntries.itemId, itemIds)))
    .returning({ schema: releaseEntries.schema, itemId: releaseEntries.itemId });
}

/**
 * Records what a publish of the release replaces in its stage and what it puts there, for every entry
 * in one statement (before the copies change): the version in the stage now, and the version to publish.
 */
export async function recordOutcomes(tx: Tx, release: ReleaseRow) {
  await tx.execute(sql`
    update release_entries e set
      previous_version = (select p.version from published p where p.workspace_id = e.workspace_id
        and p.schema = e.schema and p.id = e.item_id and p.stage = ${release.stage}),
      published_version = case when e.action = 'publish' then coalesce(e.version, (select i.version
        from items i where i.workspace_id = e.workspace_id and i.schema = e.schema and i.id = e.item_id)) end
    where e.workspace_id = ${release.workspaceId} and e.release_id = ${release.id}`);
}

/** The current version of each of the items that exist, by `schema/id`, in one statement. */
export async function currentVersionsOf(
  db: Db | Tx,
  workspaceId: string,
  keys: { schema: string; itemId: string }[],
) {
  const wanted = JSON.stringify(keys.map(({ schema, itemId }) => ({ schema, itemId })));
  const result = await db.execute(sql`
    select i.schema, i.id, i.version from items i
    join json_to_recordset(${wanted}::json) as k(schema text, "itemId" text)
      on i.schema = k.schema and i.id = k."itemId"
    where i.workspace_id = ${workspaceId}`);
  return new Map(
    rows<{ schema: string; id: string; version: number }>(result).map((r) => [
      `${r.schema}/${r.id}`,
      Number(r.version),
    ]),
  );
}

/** What is in the release's stage now for each of its entries, by `schema/id`. */
export async function stageVersionsOf(db: Db | Tx, release: ReleaseRow) {
  const result = await db.execute(sql`
    select e.schema, e.item_id, p.version from release_entries e
    join published p on p.workspace_id = e.workspace_id and p.schema = e.schema and p.id = e.item_id
      and p.stage = ${release.stage}
    where e.workspace_id = ${release.workspaceId} and e.release_id = ${release.id}`);
  return new Map(
    rows<{ schema: string; item_id: string; version: number }>(result).map((r) => [
      `${r.schema}/${r.item_id}`,
      Number(r.version),
    ]),
  );
}

/** The rows of one version of an item, in a table keyed like item_versions or approvals. */
const ofVersion = (
  columns: { workspaceId: AnyColumn; schema: AnyColumn; itemId: AnyColumn; version: AnyColumn },
  key: ItemKey,
  version: number,
) =>
  and(
    eq(columns.workspaceId, key.workspaceId),
    eq(columns.schema, key.schema),
    eq(columns.itemId, key.id),
    eq(columns.version, version),
  );

/** One version of an item from its history (kept when the item changes or is deleted). */
export async function versionContent(
  db: Db | Tx,
  key: ItemKey,
  num: number,
): Promise<VersionContent | undefined> {
  const [row] = await db
    .select({
      version: itemVersions.num,
      data: itemVersions.data,
      refs: itemVersions.refs,
      modelVersion: itemVersions.modelVersion,
    })
    .from(itemVersions)
    .where(ofVersion({ ...itemVersions, version: itemVersions.num }, key, num));
  return row;
}
