import DataLoader from 'dataloader';
import { and, asc, desc, eq, getTableColumns, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { coveringCells, EARTH_RADIUS_KM, type Point } from '@shared/geo/geohash';
import { isTransaction, statementOnce, type Db, type Tx } from '../db/client';
import { WriteBatches } from '../db/write-batches';
import { rows as resultRows } from '../db/migrate';
import { preparedPerDb } from '../db/prepared';
import {
  ITEM_JOURNAL_INPUT_COLUMNS,
  itemJournalCtes,
  itemJournalInput,
  itemsWritten,
  type ItemJournal,
} from '../journal/journal';
import { writerName } from '../journal/marquee-actor';
import { itemReadCacheOf } from './cache';
import { items, members, placeGeohashOf, placeOf, published, publishedSlugs, users } from '../db/schema';

/** An item's row as services read it: everything but the words its search looks in. */
export type ItemRow = Omit<typeof items.$inferSelect, 'searchText'>;
const { searchText: _searchText, ...itemColumns } = getTableColumns(items);
export interface ItemKey {
  workspaceId: string;
  schema: string;
  id: string;
}
/** A stage copy of an item, without its data. */
export interface ItemCopy {
  stage: string;
  version: number;
  publishedAt: Date;
  publishedBy: string;
}
/** An approval of an item's current version. */
export interface ItemApproval {
  roleId: string;
  roleLabel: string;
  byId: string;
  byName: string;
  at: Date;
}
/**
 * An item with the display name of its last writer (member name, else account name, else null) and,
 * when read with them, its stage copies and the approvals of its current version.
 */
export interface ItemWithWriter {
  item: ItemRow;
  writerName: string | null;
  copies?: ItemCopy[];
  approvals?: ItemApproval[];
}

const byKey = (key: ItemKey) =>
  and(eq(items.workspaceId, key.workspaceId), eq(items.schema, key.schema), eq(items.id, key.id));
const byPublishedKey = (key: ItemKey) =>
  and(eq(published.workspaceId, key.workspaceId), eq(published.schema, key.schema), eq(published.id, key.id));

/** Stage copies and current approvals as JSON beside each item row: one round trip for a whole page. */
const copiesColumn = sql<{ stage: string; version: number; publishedAt: string; publishedBy: string }[]>`(
  select coalesce(json_agg(json_build_object('stage', p.stage, 'version', p.version, 'publishedAt', p.published_at, 'publishedBy', p.published_by)), '[]'::json)
  from published p
  where p.workspace_id = ${items.workspaceId} and p.schema = ${items.schema} and p.id = ${items.id})`;
const approvalsColumn = sql<
  { roleId: string; roleLabel: string; byId: string; byName: string; at: string }[]
>`(
  select coalesce(json_agg(json_build_object('roleId', a.role_id, 'roleLabel', a.role_label, 'byId', a.by_id, 'byName', a.by_name, 'at', a.at) order by a.at, a.role_id), '[]'::json)
  from approvals a
  where a.workspace_id = ${items.workspaceId} and a.schema = ${items.schema} and a.item_id = ${items.id} and a.version = ${items.version})`;

/**
 * The stage copies of some items and the approvals of the given versions, for rows read without them
 * (just written rows): one round trip for any number of items.
 */
export async function copiesAndApprovalsOf(
  db: Db | Tx,
  workspaceId: string,
  keys: readonly { schema: string; id: string; version: number }[],
): Promise<{ schema: string; id: string; version: number; copies: ItemCopy[]; approvals: ItemApproval[] }[]> {
  if (keys.length === 0) return [];
  const tuples = keys.map((k) => sql`(${k.schema}::text, ${k.id}::text, ${k.version}::int)`);
  const result = await db.execute(sql`
    select k.schema, k.id, k.version, (
      select coalesce(json_agg(json_build_object('stage', p.stage, 'version', p.version, 'publishedAt', p.published_at, 'publishedBy', p.published_by)), '[]'::json)
      from published p
      where p.workspace_id = ${workspaceId} and p.schema = k.schema and p.id = k.id) as copies, (
      select coalesce(json_agg(json_build_object('roleId', a.role_id, 'roleLabel', a.role_label, 'byId', a.by_id, 'byName', a.by_name, 'at', a.at) order by a.at, a.role_id), '[]'::json)
      from approvals a
      where a.workspace_id = ${workspaceId} and a.schema = k.schema and a.item_id = k.id and a.version = k.version) as approvals
    from (values ${sql.join(tuples, sql`, `)}) as k(schema, id, version)`);
  const parsed = <T>(value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  return resultRows<Record<string, unknown>>(result).map((r) => ({
    schema: r.schema as string,
    id: r.id as string,
    version: Number(r.version),
    copies: parsed<(Omit<ItemCopy, 'publishedAt'> & { publishedAt: string })[]>(r.copies).map((c) => ({
      ...c,
      publishedAt: new Date(c.publishedAt),
    })),
    approvals: parsed<(Omit<ItemApproval, 'at'> & { at: string })[]>(r.approvals).map((a) => ({
      ...a,
      at: new Date(a.at),
    })),
  }));
}

/** The columns of an item read with its writer's names, stage copies and current approvals. */
const withWriterColumns = {
  item: itemColumns,
  memberName: members.displayName,
  userName: users.name,
  copies: copiesColumn,
  approvals: approvalsColumn,
};
/** The joins that find the names of an item's last writer: in the workspace, and their account. */
const writerMember = and(eq(members.workspaceId, items.workspaceId), eq(members.userId, items.lastWrittenBy));
const writerUser = eq(users.id, items.lastWrittenBy);

const withWriter = (db: Db | Tx) =>
  db.select(withWriterColumns).from(items).leftJoin(members, writerMember).leftJoin(users, writerUser);

type WithWriterRow = Awaited<ReturnType<ReturnType<typeof withWriter>['execute']>>[number];

const toWithWriter = (r: WithWriterRow): ItemWithWriter => ({
  item: r.item,
  writerName: writerName(r.item.lastWrittenBy, r.memberName, r.userName),
  copies: r.copies.map((c) => ({ ...c, publishedAt: new Date(c.publishedAt) })),
  approvals: r.approvals.map((a) => ({ ...a, at: new Date(a.at) })),
});

/** What a save writes; `modelVersion` names the model version the data was checked against. */
export type ItemPatch = Pick<
  ItemRow,
  'data' | 'refs' | 'lastWrittenBy' | 'lastWrittenAt' | 'hasErrors' | 'variation' | 'modelVersion'
> & { searchText: string };

type SavedRow = Record<string, unknown>;
const toItemRow = (r: SavedRow): ItemRow => ({
  workspaceId: r.workspace_id as string,
  schema: r.schema as string,
  id: r.id as string,
  data: r.data as ItemRow['data'],
  refs: r.refs as ItemRow['refs'],
  version: Number(r.version),
  lastWrittenBy: r.last_written_by as string,
  lastWrittenAt: new Date(r.last_written_at as string | Date),
  createdAt: new Date(r.created_at as string | Date),
  createdBy: r.created_by as string,
  hasErrors: Boolean(r.has_errors),
  variation: (r.variation ?? null) as ItemRow['variation'],
  approvedRoles: (r.approved_roles ?? []) as string[],
  modelVersion: Number(r.model_version ?? 0),
});
const value = (name: string) => sql.placeholder(name);

/**
 * The columns of a write's row in the `input` of the statements below (one `jsonb_to_recordset`
 * parameter, `rows`), the journal's among them (journal/journal.ts `ITEM_JOURNAL_INPUT_COLUMNS`).
 */
const INPUT_COLUMNS =
  sql.raw(`workspace_id text, schema text, id text, base_version int, data jsonb, refs jsonb,
  has_errors boolean, variation jsonb, search_text text, written_by text, written_at timestamptz,
  model_version int, ${ITEM_JOURNAL_INPUT_COLUMNS}`);

/** A write of an item these statements take: its key, what it writes, and its journal. */
interface ItemWrite {
  key: ItemKey;
  patch: ItemPatch;
  journaled?: ItemJournal;
  /** A save's: the version it was based on (none: whatever is stored). */
  baseVersion?: number;
}

const inputRow = ({ key, patch, journaled, baseVersion }: ItemWrite) => ({
  workspace_id: key.workspaceId,
  schema: key.schema,
  id: key.id,
  base_version: baseVersion ?? null,
  data: patch.data,
  refs: patch.refs,
  has_errors: patch.hasErrors,
  variation: patch.variation,
  search_text: patch.searchText,
  written_by: patch.lastWrittenBy,
  written_at: patch.lastWrittenAt.toISOString(),
  model_version: patch.modelVersion,
  ...(journaled && itemJournalInput(journaled)),
});

const keyText = (key: ItemKey) => `${key.workspaceId}\n${key.schema}\n${key.id}`;

/**
 * Runs a statement below for writes of one kind (journaled or not, with the same event), and answers
 * each write's row, or nothing for a write the statement left alone.
 */
async function writeRows(
  db: Db | Tx,
  statements: ReturnType<typeof statementOnce>[],
  writes: ItemWrite[],
): Promise<(SavedRow | undefined)[]> {
  const journaled = writes[0].journaled;
  const written = await statements[journaled ? 1 : 0]<SavedRow>(db, {
    rows: JSON.stringify(writes.map(inputRow)),
    journalEvent: journaled?.event ?? null,
  });
  const byKey = new Map(written.map((row) => [keyText(toItemRow(row)), row]));
  return writes.map(({ key }) => byKey.get(keyText(key)));
}

/**
 * Writes outside a transaction go with the writes of the same kind made at the same moment in the
 * workspace, one statement for all (db/write-batches.ts); inside one, alone.
 */
function writeTogether(
  batchesOf: WeakMap<Db, WriteBatches<ItemWrite, SavedRow | undefined>>,
  writeAll: (db: Db | Tx, writes: ItemWrite[]) => Promise<(SavedRow | undefined)[]>,
  db: Db | Tx,
  write: ItemWrite,
): Promise<SavedRow | undefined> {
  if (isTransaction(db)) return writeAll(db, [write]).then(([row]) => row);
  let batches = batchesOf.get(db as Db);
  if (!batches) batchesOf.set(db as Db, (batches = new WriteBatches((writes) => writeAll(db, writes))));
  return batches.run(`${write.key.workspaceId}\n${write.journaled?.event ?? ''}`, write);
}

const journalOf = (source: 'saved' | 'created', journaled: boolean) =>
  journaled ? sql.join(itemJournalCtes(source)) : sql``;

/**
 * New items at version 1 with their first history versions, any number in one statement; an id already
 * taken writes nothing for that row. `journaled`: the audit and outbox rows of each, as CTEs of the same
 * statement.
 */
const insertFirstVersionsStatements = [false, true].map((journaled) =>
  statementOnce(
    () => sql`
    with input as (select * from jsonb_to_recordset(${value('rows')}::jsonb) as r(${INPUT_COLUMNS})),
    created as (
      insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by, has_errors, variation, search_text, model_version)
      select workspace_id, schema, id, data, refs, 1, written_by, written_at, written_at, written_by, has_errors,
        variation, search_text, model_version
      from input
      on conflict do nothing
      returning *
    ), history as (
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs, model_version)
      select workspace_id, schema, id, version, last_written_at, last_written_by, data, refs, model_version from created
    )${journalOf('created', journaled)}
    select * from created`,
  ),
);

const createBatches = new WeakMap<Db, WriteBatches<ItemWrite, SavedRow | undefined>>();
const insertFirstVersions = (db: Db | Tx, writes: ItemWrite[]) =>
  writeRows(db, insertFirstVersionsStatements, writes);

/**
 * The save of a new item: the item at version 1 and its first history version, one atomic statement
 * (with the creates made at the same moment in the workspace). Answers nothing when the id is taken.
 * `journaled`: the journal's audit and outbox rows, as CTEs of the same statement.
 */
export async function insertFirstVersion(
  db: Db | Tx,
  key: ItemKey,
  patch: ItemPatch,
  journaled?: ItemJournal,
) {
  const row = await writeTogether(createBatches, insertFirstVersions, db, { key, patch, journaled });
  if (row) await itemsWritten(db, { ...key, version: 1 }, journaled);
  return row && toItemRow(row);
}

/**
 * Next versions of items in one statement (`input` as the creates'): version + 1 with no approvals yet, the history
 * row with the full data, and the stage copies told of the new version (`copies_json`); a row with a
 * base version only when the stored version is still that one.
 */
const saveNextVersionsStatements = [false, true].map((journaled) =>
  statementOnce(
    () => sql`
    with input as (select * from jsonb_to_recordset(${value('rows')}::jsonb) as r(${INPUT_COLUMNS})),
    saved as (
      update items t set data = r.data, refs = r.refs, has_errors = r.has_errors, variation = r.variation,
        search_text = r.search_text, last_written_by = r.written_by, last_written_at = r.written_at,
        version = t.version + 1, approved_roles = '{}', model_version = r.model_version
      from input r
      where t.workspace_id = r.workspace_id and t.schema = r.schema and t.id = r.id
        and (r.base_version is null or t.version = r.base_version)
      returning t.*
    ), history as (
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs, model_version)
      select workspace_id, schema, id, version, last_written_at, last_written_by, data, refs, model_version from saved
    ), copies as (
      update published set item_version = saved.version from saved
      where published.workspace_id = saved.workspace_id and published.schema = saved.schema and published.id = saved.id
      returning published.workspace_id, published.schema, published.id, published.stage, published.version, published.published_at, published.published_by
    )${journalOf('saved', journaled)}
    select s.*, (
      select coalesce(json_agg(json_build_object('stage', c.stage, 'version', c.version, 'publishedAt', c.published_at, 'publishedBy', c.published_by)), '[]'::json)
      from copies c where c.workspace_id = s.workspace_id and c.schema = s.schema and c.id = s.id) as copies_json
    from saved s`,
  ),
);

/**
 * The save of the next version as one statement, so one atomic round trip (DESIGN §7: 1,000 saves/s):
 * version + 1 with no approvals yet, the history row with the full data, and the stage copies told of
 * the new version. With a base version, only when the stored version is still that one; answers nothing
 * when stale or absent. Answers the row with its stage copies (the new version has no approvals yet).
 * `journaled`: the audit and outbox rows, as CTEs of the same statement. Saves are not batched as
 * creates are: a batch waits for the slowest of its rows' locks (a model change's batch holds
 * thousands), and every save queued behind it with it.
 */
export async function saveNextVersion(
  db: Db | Tx,
  key: ItemKey,
  baseVersion: number | undefined,
  patch: ItemPatch,
  journaled?: ItemJournal,
) {
  const [row] = await writeRows(db, saveNextVersionsStatements, [{ key, patch, journaled, baseVersion }]);
  if (!row) return undefined;
  await itemsWritten(db, { ...key, version: Number(row.version) }, journaled);
  const copies = (typeof row.copies_json === 'string' ? JSON.parse(row.copies_json) : row.copies_json) as {
    stage: string;
    version: number;
    publishedAt: string;
    publishedBy: string;
  }[];
  return { ...toItemRow(row), copies: copies.map((c) => ({ ...c, publishedAt: new Date(c.publishedAt) })) };
}

export async function findItem(db: Db | Tx, key: ItemKey): Promise<ItemRow | undefined> {
  const [row] = await db.select(itemColumns).from(items).where(byKey(key)).limit(1);
  return row;
}

/**
 * An item's stored data and whether it has ever been published: a stage copy now, or a publish in the
 * audit log (unpublishing removes the copy, not that).
 */
export async function findPublishedState(db: Db, key: ItemKey) {
  const result = await db.execute(sql`
    select i.data, (exists (
      select 1 from published p where p.workspace_id = i.workspace_id and p.schema = i.schema and p.id = i.id
    ) or exists (
      select 1 from audit_log a
      where a.workspace_id = i.workspace_id and a.action = 'item.published' and a.schema = i.schema and a.target_id = i.id
    )) as has_been_published
    from items i
    where i.workspace_id = ${key.workspaceId} and i.schema = ${key.schema} and i.id = ${key.id}`);
  const [row] = resultRows<{ data: ItemRow['data']; has_been_published: boolean }>(result);
  return row && { data: row.data, hasBeenPublished: Boolean(row.has_been_published) };
}

/** The item row, locked until the transaction ends, so a concurrent save waits for a publish or approval. */
export async function lockItem(tx: Tx, key: ItemKey): Promise<ItemRow | undefined> {
  const [row] = await tx.select(itemColumns).from(items).where(byKey(key)).limit(1).for('update');
  return row;
}

const selectItemsWithWriter = preparedPerDb((db) =>
  withWriter(db)
    .where(
      and(
        eq(items.workspaceId, sql.placeholder('workspaceId')),
        eq(items.schema, sql.placeholder('schema')),
        sql`${items.id} = any(${sql.placeholder('ids')}::text[])`,
      ),
    )
    .prepare('items_with_writer'),
);

/**
 * Item reads asked for while the event loop handles one round of I/O are read together: one prepared
 * statement per workspace and schema for every id asked (under load, the reads of several requests
 * share a round trip). No memo: every call reads the database (the item cache is what keeps answers).
 */
const itemLoader = preparedPerDb(
  (db) =>
    new DataLoader<ItemKey, ItemWithWriter | undefined, string>(
      async (keys) => {
        const groups = new Map<string, { key: ItemKey; ids: string[] }>();
        for (const key of keys) {
          const group = `${key.workspaceId}\t${key.schema}`;
          const entry = groups.get(group);
          if (entry) entry.ids.push(key.id);
          else groups.set(group, { key, ids: [key.id] });
        }
        const found = new Map<string, ItemWithWriter>();
        await Promise.all(
          [...groups].map(async ([group, { key, ids }]) => {
            const rows = await selectItemsWithWriter(db).execute({
              workspaceId: key.workspaceId,
              schema: key.schema,
              ids: [...new Set(ids)],
            });
            for (const row of rows) found.set(`${group}\t${row.item.id}`, toWithWriter(row));
          }),
        );
        return keys.map((key) => found.get(`${key.workspaceId}\t${key.schema}\t${key.id}`));
      },
      { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch), maxBatchSize: 100 },
    ),
);

/** One item with its writer's name, stage copies and current approvals: the item cache, or a batched read. */
export async function findItemWithWriter(db: Db, key: ItemKey): Promise<ItemWithWriter | undefined> {
  const read = () => itemLoader(db).load({ workspaceId: key.workspaceId, schema: key.schema, id: key.id });
  const cache = itemReadCacheOf(db);
  return cache ? cache.item(key.workspaceId, `${key.schema}\t${key.id}`, read) : read();
}

export async function deleteItem(tx: Tx, key: ItemKey) {
  const rows = await tx.delete(items).where(byKey(key)).returning({ id: items.id });
  return rows.length > 0;
}

/**
 * Removes every stage copy of an item and the slugs it was published under (with the item, when it is
 * deleted); answers the stages it was in.
 */
export async function deleteCopies(tx: Tx, key: ItemKey) {
  const rows = await tx.delete(published).where(byPublishedKey(key)).returning({ stage: published.stage });
  await tx
    .delete(publishedSlugs)
    .where(
      and(
        eq(publishedSlugs.workspaceId, key.workspaceId),
        eq(publishedSlugs.schema, key.schema),
        eq(publishedSlugs.id, key.id),
      ),
    );
  return rows.map((row) => row.stage);
}

/** Adds a role to the approvals of the current version, unless the version moved on or the role already approved. */
export async function addApprovedRole(tx: Tx, key: ItemKey, version: number, roleId: string) {
  const rows = await tx
    .update(items)
    .set({ approvedRoles: sql`array_append(${items.approvedRoles}, ${roleId}::text)` })
    .where(
      and(byKey(key), eq(items.version, version), sql`not (${roleId}::text = any(${items.approvedRoles}))`),
    )
    .returning({ id: items.id });
  return rows.length > 0;
}

/** Which items a list holds, beyond the workspace and schema filter. */
export type ItemFilter =
  | { kind: 'all' }
  | { kind: 'written-by'; userId: string }
  /** Items with a planned publish or unpublish that has not run yet. */
  | { kind: 'scheduled' }
  /** Items of these schemas whose approvals do not yet include all these roles, per group. */
  | { kind: 'awaiting'; groups: { schemas: string[]; roleIds: string[] }[] }
  | { kind: 'stage'; stage: string; only: 'published' | 'outdated' | 'aging'; before?: Date }
  /**
   * Items whose address lies within radiusKm of the centre (optionally last written by a user),
   * nearest first; paged by `nearCursor`, not `cursor`.
   */
  | { kind: 'near'; center: Point; radiusKm: number; writtenBy?: string };

export interface Cursor {
  at: string;
  id: string;
}

export interface ListQuery {
  workspaceId: string;
  /** One schema, or every schema of the enabled domains. */
  schemas: string[];
  filter: ItemFilter;
  cursor?: Cursor;
  /** The page after this one of a near list. */
  nearCursor?: NearCursor;
  limit: number;
  /** Case-insensitive text the item's words (items/search-text.ts) must contain. */
  search?: string;
  /** Only items where one of these localised fields has a default value but none in the locale. */
  missingIn?: { locale: string; keys: readonly string[] };
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The item's words contain the text, case-insensitively: its search text (a trigram index scan), or,
 * while that is not computed yet, its name or title (the rows the pending index holds).
 */
function wordsContain(text: string) {
  const pattern = containsPattern(text);
  return sql`(${items.searchText} ilike ${pattern} or (${items.searchText} is null and (${items.data}->>'name' ilike ${pattern} or ${items.data}->>'title' ilike ${pattern})))`;
}

const inSchemas = (column: typeof items.schema | typeof published.schema, schemas: string[]) =>
  schemas.length === 1 ? eq(column, schemas[0]) : inArray(column, schemas);

/** Rows after the cursor in newest-first order: an earlier time, or the same time and a smaller id. */
const beforeCursor = (at: AnyColumn, id: AnyColumn, cursor: Cursor) =>
  sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})`;

type ListedItem = ItemWithWriter & { sortAt: Date; distanceKm?: number };
type FilterOf<K extends ItemFilter['kind']> = Extract<ItemFilter, { kind: K }>;

const sortedByLastWrite = (r: WithWriterRow): ListedItem => ({
  ...toWithWriter(r),
  sortAt: r.item.lastWrittenAt,
});

/**
 * One keyset page, newest first: by last write, or for stage views by publish time. Answers up to
 * limit + 1 rows so the caller knows whether a next page exists; `sortAt` is the value the cursor carries.
 */
export async function listItems(db: Db, query: ListQuery): Promise<ListedItem[]> {
  const { filter } = query;
  if (filter.kind === 'near') return listNearPage(db, query, filter);
  if (filter.kind === 'stage') return listStageCopies(db, query, filter);
  if ((filter.kind === 'all' || filter.kind === 'written-by') && isPreparedPage(query)) {
    return readPreparedPage(db, query, filter);
  }
  return listByLastWrite(db, query);
}

async function listNearPage(db: Db, query: ListQuery, filter: FilterOf<'near'>): Promise<ListedItem[]> {
  const { center, radiusKm, writtenBy } = filter;
  const { workspaceId, schemas, search, nearCursor, limit } = query;
  const rows = await listNearItems(db, {
    workspaceId,
    schemas,
    center,
    radiusKm,
    writtenBy,
    search,
    cursor: nearCursor,
    limit,
  });
  return rows.map((r) => ({ ...r, sortAt: r.item.lastWrittenAt }));
}

/** The conditions of every list but near: the workspace, and the text searched for. */
function workspaceAndSearch(query: ListQuery): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(items.workspaceId, query.workspaceId)];
  if (query.search) conditions.push(wordsContain(query.search));
  if (query.missingIn) conditions.push(missingInLocale(query.missingIn.locale, query.missingIn.keys));
  return conditions;
}

/** The items with a copy on a stage (all of them, outdated or aging ones), by publish time. */
async function listStageCopies(db: Db, query: ListQuery, filter: FilterOf<'stage'>): Promise<ListedItem[]> {
  const conditions = workspaceAndSearch(query);
  conditions.push(
    eq(published.workspaceId, query.workspaceId),
    eq(published.stage, filter.stage),
    inSchemas(published.schema, query.schemas),
  );
  if (filter.only === 'outdated') conditions.push(sql`${published.version} < ${published.itemVersion}`);
  if (filter.only === 'aging' && filter.before) {
    conditions.push(sql`${published.publishedAt} < ${filter.before.toISOString()}::timestamptz`);
  }
  if (query.cursor) conditions.push(beforeCursor(published.publishedAt, published.id, query.cursor));
  const rows = await db
    .select({ ...withWriterColumns, sortAt: published.publishedAt })
    .from(items)
    .leftJoin(members, writerMember)
    .leftJoin(users, writerUser)
    .innerJoin(
      published,
      and(
        eq(published.workspaceId, items.workspaceId),
        eq(published.schema, items.schema),
        eq(published.id, items.id),
      ),
    )
    .where(and(...conditions))
    .orderBy(desc(published.publishedAt), desc(published.id))
    .limit(query.limit + 1);
  return rows.map((r) => ({ ...toWithWriter(r), sortAt: r.sortAt }));
}

/** Whether a jsonb value is empty as isEmptyValue sees it: missing, null, '' or an empty list (of blocks). */
const isEmptyJson = (value: SQL) =>
  sql`coalesce(${value}, 'null'::jsonb) in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;

/** Items with a localised field whose default value is set and whose value in `locale` is not. */
function missingInLocale(locale: string, keys: readonly string[]): SQL {
  const missing = keys.map(
    (key) =>
      sql`(not ${isEmptyJson(sql`${items.data} -> ${key}`)} and ${isEmptyJson(sql`${items.data} -> '_locales' -> ${locale} -> ${key}`)})`,
  );
  return missing.length > 0 ? sql`(${sql.join(missing, sql` or `)})` : sql`false`;
}

/** The list screen's own pages (one schema, all or mine, no search, up to 100): prepared ones. */
const isPreparedPage = (query: ListQuery) =>
  !query.search &&
  !query.missingIn &&
  query.schemas.length === 1 &&
  Number.isInteger(query.limit) &&
  query.limit >= 1 &&
  query.limit <= 100;

/** A page of the list screen: prepared once, no query building per request, kept in the item cache. */
async function readPreparedPage(
  db: Db,
  query: ListQuery,
  filter: FilterOf<'all' | 'written-by'>,
): Promise<ListedItem[]> {
  const { cursor } = query;
  const params = {
    workspaceId: query.workspaceId,
    schema: query.schemas[0],
    userId: filter.kind === 'written-by' ? filter.userId : null,
    at: cursor?.at ?? null,
    id: cursor?.id ?? null,
  };
  const read = async () => {
    const page = preparedPage(db, filter.kind === 'written-by', cursor !== undefined, query.limit + 1);
    const rows = await page.execute(params);
    return rows.map(sortedByLastWrite);
  };
  const cache = itemReadCacheOf(db);
  if (!cache) return read();
  const key = [params.schema, params.userId, params.at, params.id, query.limit].join('\t');
  return cache.page(query.workspaceId, key, read);
}

/** The conditions of a list by last write: its schemas, and what its view holds. */
function lastWriteConditions(query: ListQuery, filter: ItemFilter): (SQL | undefined)[] {
  const conditions = workspaceAndSearch(query);
  conditions.push(inSchemas(items.schema, query.schemas));
  if (filter.kind === 'written-by') conditions.push(eq(items.lastWrittenBy, filter.userId));
  if (filter.kind === 'scheduled') {
    // A planned publish or unpublish, or a campaign's send queued for its time.
    conditions.push(
      sql`(exists (select 1 from schedules s where s.workspace_id = ${items.workspaceId} and s.schema = ${items.schema} and s.item_id = ${items.id} and s.status in ('pending', 'running'))
        or (${items.schema} = 'campaign' and exists (select 1 from campaign_sends cs where cs.workspace_id = ${items.workspaceId} and cs.campaign_id = ${items.id} and cs.state = 'queued')))`,
    );
  }
  if (filter.kind === 'awaiting') {
    const groups = filter.groups.map(
      (g) =>
        sql`(${inArray(items.schema, g.schemas)} and not (${items.approvedRoles} @> ${textArray(g.roleIds)}))`,
    );
    conditions.push(sql`(${sql.join(groups, sql` or `)})`);
  }
  if (query.cursor) conditions.push(beforeCursor(items.lastWrittenAt, items.id, query.cursor));
  return conditions;
}

/** The items of a view by last write, built for the query (searched, several schemas, scheduled, awaiting). */
async function listByLastWrite(db: Db, query: ListQuery): Promise<ListedItem[]> {
  const { filter } = query;
  if (filter.kind === 'awaiting' && filter.groups.length === 0) return [];
  const rows = await withWriter(db)
    .where(and(...lastWriteConditions(query, filter)))
    .orderBy(desc(items.lastWrittenAt), desc(items.id))
    .limit(query.limit + 1);
  return rows.map(sortedByLastWrite);
}

const buildPage = (db: Db, writtenBy: boolean, withCursor: boolean, limit: number) =>
  withWriter(db)
    .where(
      and(
        eq(items.workspaceId, sql.placeholder('workspaceId')),
        eq(items.schema, sql.placeholder('schema')),
        writtenBy ? eq(items.lastWrittenBy, sql.placeholder('userId')) : undefined,
        withCursor
          ? sql`(${items.lastWrittenAt}, ${items.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')})`
          : undefined,
      ),
    )
    .orderBy(desc(items.lastWrittenAt), desc(items.id))
    // The limit (a validated whole number) is written into the statement: with LIMIT $n PostgreSQL
    // plans every execution afresh (about 0.3 ms, three times the execution); with a literal it keeps
    // one generic plan.
    .limit(sql.raw(String(limit)) as unknown as number)
    .prepare(`items_page_${Number(writtenBy)}${Number(withCursor)}_${limit}`);

const pagesOf = preparedPerDb(() => new Map<string, ReturnType<typeof buildPage>>());

/** The prepared page of one schema: all or written by a user, first or next page, of one size. */
function preparedPage(db: Db, writtenBy: boolean, withCursor: boolean, limit: number) {
  const pages = pagesOf(db);
  const key = `${Number(writtenBy)}${Number(withCursor)}_${limit}`;
  let page = pages.get(key);
  if (!page) pages.set(key, (page = buildPage(db, writtenBy, withCursor, limit)));
  return page;
}

/** A text[] built from parameters. */
const textArray = (values: readonly string[]) =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** How many items a workspace holds (subscription usage). */
export async function countItems(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(items)
    .where(eq(items.workspaceId, workspaceId));
  return row?.n ?? 0;
}

/** The first ring of a near search, km. */
const MIN_RING_KM = 1;

export interface NearCursor {
  distanceKm: number;
  id: string;
}

/** The near list's statement: the list query with the near filter spelled out. */
export interface NearQuery {
  workspaceId: string;
  schemas: string[];
  center: Point;
  radiusKm: number;
  writtenBy?: string;
  search?: string;
  cursor?: NearCursor;
  limit: number;
}

/**
 * The point of the item's address, read once per row. Coordinates within 1e-100 of zero count as zero:
 * PostgreSQL raises an underflow error where float arithmetic would round to zero. `offset 0` keeps the
 * planner from inlining it, which would evaluate the JSON path again in every use of the point.
 */
const point = sql`lateral (
  select case when abs(lat) < 1e-100 then 0 else lat end as lat, case when abs(lng) < 1e-100 then 0 else lng end as lng
  from (select (place ->> 'latitude')::float8 as lat, (place ->> 'longitude')::float8 as lng
        from (select ${placeOf(items.data)} as place offset 0) as address) as raw
) as near_point`;

const snap = (value: number) => (Math.abs(value) < 1e-100 ? 0 : value);

/** Haversine distance in km from the centre, as `distanceKm` in src/shared/geo computes it. */
const distanceFrom = (center: Point) => {
  const lat = sql`${snap(center.latitude)}::float8`;
  const lng = sql`${snap(center.longitude)}::float8`;
  return sql<number>`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
    power(sin(radians(near_point.lat - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(near_point.lat)) * power(sin(radians(near_point.lng - ${lng}) / 2), 2)))))`;
};

/**
 * Items whose address lies within the radius, nearest first (then by id): the geohash index narrows
 * them to the covering cells, one range scan per cell, and the exact distance decides. Answers up to
 * limit + 1 rows so the caller knows whether a next page exists.
 */
async function listNearItems(db: Db, query: NearQuery): Promise<(ItemWithWriter & { distanceKm: number })[]> {
  // A page needs a few dozen rows: a parallel worker or JIT compilation (which PostgreSQL plans for
  // the large row estimates of the cells) costs far more than the scan itself.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    await tx.execute(sql`set local jit = off`);
    // Widening rings: a page found within a smaller radius is the page of the whole radius (everything
    // outside it is farther away), and in a dense city it reads a few hundred rows, not every one in range.
    const start = Math.max(MIN_RING_KM, (query.cursor?.distanceKm ?? 0) * 1.5);
    for (
      let radiusKm = Math.min(query.radiusKm, start);
      ;
      radiusKm = Math.min(query.radiusKm, radiusKm * 4)
    ) {
      const found = await nearItemsQuery(tx, { ...query, radiusKm });
      if (found.length > query.limit || radiusKm >= query.radiusKm) return found;
    }
  });
  return rows.map((r) => ({ ...toWithWriter(r), distanceKm: Number(r.distanceKm) }));
}

/** The statement of listNearItems, unexecuted (the benchmark prints its plan). */
export function nearItemsQuery(db: Db | Tx, query: NearQuery) {
  const geohash = sql`(${placeGeohashOf(items.data)} collate "C")`;
  const distance = distanceFrom(query.center);
  // Geohash cells covering the circle, each an index range scan; null when it holds the whole sphere.
  const cells = coveringCells(query.center, query.radiusKm);
  const conditions: (SQL | undefined)[] = [
    eq(items.workspaceId, query.workspaceId),
    inSchemas(items.schema, query.schemas),
    sql`${placeGeohashOf(items.data)} is not null`,
    sql`${distance} <= ${query.radiusKm}::float8`,
  ];
  if (cells) {
    // Every 12-character geohash in a cell lies between the cell and the cell followed by '~' (after
    // every geohash character in the C collation).
    const ranges = cells.map((cell) => sql`(${geohash} >= ${cell} and ${geohash} < ${`${cell}~`})`);
    conditions.push(sql`(${sql.join(ranges, sql` or `)})`);
  }
  if (query.writtenBy) conditions.push(eq(items.lastWrittenBy, query.writtenBy));
  if (query.search) conditions.push(wordsContain(query.search));
  if (query.cursor) {
    conditions.push(
      sql`(${distance}, ${items.id}) > (${query.cursor.distanceKm}::float8, ${query.cursor.id}::text)`,
    );
  }
  return db
    .select({ ...withWriterColumns, distanceKm: distance })
    .from(items)
    .innerJoin(point, sql`true`)
    .leftJoin(members, writerMember)
    .leftJoin(users, writerUser)
    .where(and(...conditions))
    .orderBy(asc(distance), asc(items.id))
    .limit(query.limit + 1);
}

/**
 * Which of the given values items of a schema already hold, per top-level data key: for a copy's
 * title and slugs, which must not repeat another item's.
 */
export async function takenValues(
  db: Db,
  scope: { workspaceId: string; schema: string },
  wanted: Readonly<Record<string, readonly string[]>>,
): Promise<Map<string, Set<string>>> {
  const taken = new Map<string, Set<string>>();
  const keys = Object.keys(wanted).filter((key) => wanted[key].length > 0);
  if (keys.length === 0) return taken;
  const matches = keys.map((key) => sql`${items.data} ->> ${key} = any(${textArray(wanted[key])})`);
  const values = sql.join(
    keys.map((key) => sql`${key}::text, ${items.data} -> ${key}`),
    sql`, `,
  );
  const found = await db
    .select({ data: sql<Record<string, unknown>>`jsonb_build_object(${values})` })
    .from(items)
    .where(
      and(
        eq(items.workspaceId, scope.workspaceId),
        eq(items.schema, scope.schema),
        sql`(${sql.join(matches, sql` or `)})`,
      ),
    );
  for (const { data } of found)
    for (const key of keys) {
      const value = data[key];
      if (typeof value === 'string' && wanted[key].includes(value)) {
        if (!taken.has(key)) taken.set(key, new Set());
        taken.get(key)!.add(value);
      }
    }
  return taken;
}
