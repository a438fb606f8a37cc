import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { batches, members } from '../db/schema';

export type BatchRow = typeof batches.$inferSelect & { createdByName: string | null };

const columns = {
  workspaceId: batches.workspaceId,
  id: batches.id,
  kind: batches.kind,
  state: batches.state,
  fileName: batches.fileName,
  total: batches.total,
  done: batches.done,
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
  failed: number;
  errors: { line: number; message: string }[];
  bytesRead?: number;
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
      failed: sql`${batches.failed} + ${progress.failed}`,
      ...(countsTotal ? { total: sql`${batches.total} + ${progress.processed + progress.failed}` } : {}),
      ...(progress.errors.length
        ? {
            // At most the first 100 row errors are kept, in line order: chunks written at once may
            // commit out of order.
            errors: sql`(select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from (
              select e, (e->>'line')::bigint as n
              from jsonb_array_elements(${batches.errors} || ${JSON.stringify(progress.errors)}::jsonb) as kept(e)
              order by n limit 100) as first)`,
          }
        : {}),
      ...(progress.bytesRead !== undefined ? { bytesRead: progress.bytesRead } : {}),
    })
    .where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
}

/** Finishes a running batch of its creator; answers whether there was one. */
export async function finishRunning(db: Db | Tx, workspaceId: string, id: string, createdBy: string) {
  const rows = await db
    .update(batches)
    .set({
      state: sql`case when ${batches.failed} > 0 and ${batches.done} = 0 then 'failed' else 'done' end`,
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

export async function finishBatch(
  db: Db | Tx,
  workspaceId: string,
  id: string,
  state: 'done' | 'failed',
  lastError?: { line: number; message: string },
) {
  await db
    .update(batches)
    .set({
      state,
      finishedAt: new Date(),
      ...(lastError ? { errors: sql`${batches.errors} || ${JSON.stringify([lastError])}::jsonb` } : {}),
    })
    .where(and(eq(batches.workspaceId, workspaceId), eq(batches.id, id)));
}
