import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { batchErrors, batches, members } from '../db/schema';

export type BatchRow = typeof batches.$inferSelect & { createdByName: string | null };

const columns = {
  workspaceId: batches.workspaceId,
  id: batches.id,
  kind: batches.kind,
  state: batches.state,
  fileName: batches.fileName,
  total: batches.total,
  done: batches.done,
  duplicates: batches.duplicates,
  failed: batches.failed,
  bytesTotal: batches.bytesTotal,
  bytesRead: batches.bytesRead,
  errors: batches.errors,
  createdAt: batches.createdAt,
  finishedAt: batches.finishedAt,
  createdBy: batches.createdBy,
  createdByName: members.displayName,
};

const withWriter = (db: Db | Tx) =>
  db
    .select(columns)
    .from(batches)
    .leftJoin(
      members,
      and(eq(members.workspaceId, batches.workspaceId), eq(members.userId, batches.createdBy)),
    );

export async function insertBatch(db: Db | Tx, row: typeof batches.$inferInsert) {
  await db.insert(batches).values(row);
}

export async function findBatch(db: Db | Tx, workspaceId: string, id: string): Promise<BatchRow | undefined> {
  const [row] = await withWriter(db).where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
  return row;
}

export async function listBatches(db: Db, workspaceId: string): Promise<BatchRow[]> {
  return withWriter(db)
    .where(eq(batches.workspaceId, workspaceId))
    .orderBy(desc(batches.createdAt))
    .limit(200);
}

export interface BatchProgress {
  processed: number;
  /** Of those processed, how many were duplicates (not stored). */
  duplicates?: number;
  failed: number;
  errors: { line: number; message: string }[];
  bytesRead?: number;
}

/** Row errors kept on the batch row itself (the API's `errors`); all of them are in batch_errors. */
const ERRORS_ON_ROW = 100;

/** A batch's row errors grouped by message, each group's lines in order: one row per message. */
function groupErrors(errors: readonly { line: number; message: string }[]) {
  const groups = new Map<string, number[]>();
  for (const { line, message } of errors) {
    const lines = groups.get(message);
    if (lines) lines.push(line);
    else groups.set(message, [line]);
  }
  return [...groups].map(([m, l]) => ({ m, l: l.sort((a, b) => a - b) }));
}

/** Stores row errors grouped by message, all in one statement. */
async function insertErrors(
  db: Db | Tx,
  workspaceId: string,
  id: string,
  errors: readonly { line: number; message: string }[],
) {
  if (!errors.length) return;
  await db.execute(sql`
    insert into ${batchErrors} (workspace_id, batch_id, message, first_line, lines)
    select ${workspaceId}, ${id}, g->>'m', (g->'l'->>0)::integer,
      array(select jsonb_array_elements_text(g->'l')::integer)
    from jsonb_array_elements(${JSON.stringify(groupErrors(errors))}::jsonb) as g`);
}

/** Adds a chunk's counts and errors to a batch (inside the chunk's own transaction). */
export async function addProgress(
  db: Db | Tx,
  workspaceId: string,
  id: string,
  progress: BatchProgress,
  { countsTotal = true } = {},
) {
  await db
    .update(batches)
    .set({
      done: sql`${batches.done} + ${progress.processed}`,
      ...(progress.duplicates ? { duplicates: sql`${batches.duplicates} + ${progress.duplicates}` } : {}),
      failed: sql`${batches.failed} + ${progress.failed}`,
      ...(countsTotal ? { total: sql`${batches.total} + ${progress.processed + progress.failed}` } : {}),
      ...(progress.errors.length
        ? {
            // At most the first 100 row errors are kept, in line order: chunks written at once may
            // commit out of order.
            errors: sql`(select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from (
              select e, (e->>'line')::bigint as n
              from jsonb_array_elements(${batches.errors} || ${JSON.stringify(progress.errors.slice(0, ERRORS_ON_ROW))}::jsonb) as kept(e)
              order by n limit ${ERRORS_ON_ROW}) as first)`,
          }
        : {}),
      ...(progress.bytesRead !== undefined ? { bytesRead: progress.bytesRead } : {}),
    })
    .where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
  await insertErrors(db, workspaceId, id, progress.errors);
}

/**
 * How a batch that read all it had ends: `done`, `done with errors` when some rows failed, `failed`
 * when rows failed and none was written.
 */
const endState = sql<string>`case when ${batches.failed} > 0 and ${batches.done} = 0 then 'failed'
  when ${batches.failed} > 0 then 'done with errors' else 'done' end`;

/** Finishes a running batch of its creator; answers whether there was one. */
export async function finishRunning(db: Db | Tx, workspaceId: string, id: string, createdBy: string) {
  const rows = await db
    .update(batches)
    .set({
      state: endState,
      finishedAt: new Date(),
    })
    .where(
      and(
        eq(batches.workspaceId, workspaceId),
        eq(batches.id, id),
        eq(batches.createdBy, createdBy),
        eq(batches.state, 'running'),
      ),
    )
    .returning({ id: batches.id });
  return rows.length > 0;
}

/**
 * Ends a batch: one that read all it had (`ended`) by its counts (see `endState`), one that stopped
 * as `failed` with why.
 */
export async function finishBatch(
  db: Db | Tx,
  workspaceId: string,
  id: string,
  how: 'ended' | 'stopped',
  lastError?: { line: number; message: string },
) {
  await db
    .update(batches)
    .set({
      state: how === 'ended' ? endState : 'failed',
      finishedAt: new Date(),
      ...(lastError ? { errors: sql`${batches.errors} || ${JSON.stringify([lastError])}::jsonb` } : {}),
    })
    .where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
  if (lastError) await insertErrors(db, workspaceId, id, [lastError]);
}

/** Row errors of one message: how many, and the first lines. */
export interface ErrorGroup {
  message: string;
  count: number;
  lines: number[];
}

/** Lines shown per group of errors. */
const GROUP_LINES = 10;

/**
 * The row errors of batches grouped by message, largest first (at most `limit` groups a batch), each
 * with its first lines; and how many groups each batch has.
 */
export async function errorGroups(
  db: Db,
  workspaceId: string,
  ids: string[],
  limit: number,
): Promise<Map<string, { groups: ErrorGroup[]; kinds: number }>> {
  const out = new Map<string, { groups: ErrorGroup[]; kinds: number }>();
  if (!ids.length) return out;
  const found = rows<{ batch_id: string; message: string; count: number; lines: number[][]; kinds: number }>(
    await db.execute(sql`
      select batch_id, message, count, lines, kinds from (
        select batch_id, message, sum(cardinality(lines))::integer as count,
          jsonb_agg(to_jsonb(lines[1:${GROUP_LINES}]) order by first_line) as lines,
          count(*) over (partition by batch_id)::integer as kinds,
          row_number() over (partition by batch_id order by sum(cardinality(lines)) desc, min(first_line)) as n
        from ${batchErrors}
        where workspace_id = ${workspaceId} and batch_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        group by batch_id, message) as grouped
      where n <= ${limit}
      order by batch_id, n`),
  );
  for (const row of found) {
    let batch = out.get(row.batch_id);
    if (!batch) out.set(row.batch_id, (batch = { groups: [], kinds: row.kinds }));
    const lines = row.lines
      .flat()
      .sort((a, b) => a - b)
      .slice(0, GROUP_LINES);
    batch.groups.push({ message: row.message, count: row.count, lines });
  }
  return out;
}

/** Every row error of a batch, in line order: for its CSV. */
export async function allErrors(db: Db, workspaceId: string, id: string) {
  return rows<{ line: number; message: string }>(
    await db.execute(sql`
      select line, message from ${batchErrors}, unnest(lines) as line
      where workspace_id = ${workspaceId} and batch_id = ${id}
      order by line, message`),
  );
}
