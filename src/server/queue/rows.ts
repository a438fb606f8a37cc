import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { enqueueMany, insertJobsFrom, type JobQueue } from './queue';
import { rowJobs, rowKey, SWEEP_LIMIT, type RowKey } from './queues';

/** The keys as a relation `k(workspace_id, id)` for a join. */
export const keysRelation = (keys: RowKey[]) =>
  sql`(select "workspaceId" as workspace_id, id
       from json_to_recordset(${JSON.stringify(keys.map(({ workspaceId, id }) => ({ workspaceId, id })))}::json)
         as r("workspaceId" text, id text)) k`;

/** A row a job found still waiting: not due yet, or claimed by a try still under way. */
export interface WaitingRow extends RowKey {
  dueAt: Date;
}

export const waitingRows = (result: unknown, column: string): WaitingRow[] =>
  rows<Record<string, unknown>>(result).map((r) => ({
    workspaceId: r.workspace_id as string,
    id: r.id as string,
    dueAt: new Date(r[column] as string),
  }));

/**
 * Jobs again, at their due time, for rows a job found waiting: a row rescheduled for later, or one whose
 * lease another try holds (should that try's process have died, the row is due once the lease ends).
 * A row's key keeps one waiting job per row.
 */
export const requeueWaiting = (db: Db | Tx, queue: JobQueue<RowKey>, waiting: WaitingRow[]) =>
  enqueueMany(
    db,
    queue,
    waiting.map((row) => ({
      data: { workspaceId: row.workspaceId, id: row.id },
      singletonKey: rowKey(row),
      startAfter: row.dueAt,
    })),
  );

/** Outbox tables: a row is `pending` until done, due at `next_at` (or when the lease of a try ends). */
type OutboxTable = 'webhook_deliveries' | 'delivery_purges';

/** Those of the outbox rows `keys` still pending, with when they are due (or their lease ends). */
export async function waitingOutboxRows(db: Db, table: OutboxTable, keys: RowKey[]): Promise<WaitingRow[]> {
  const result = await db.execute(sql`
    select o.workspace_id, o.id, o.next_at from ${sql.raw(table)} o join ${keysRelation(keys)} using (workspace_id, id)
    where o.status = 'pending'`);
  return waitingRows(result, 'next_at');
}

/** A job for each pending outbox row due by now (the sweep: rows whose job was lost or that predate the queue). */
export const queueDueOutboxRows = (db: Db, table: OutboxTable, queue: JobQueue<RowKey>) =>
  db.execute(
    insertJobsFrom(
      queue,
      rowJobs(sql`${sql.raw(table)} where status = 'pending' and next_at <= now() limit ${SWEEP_LIMIT}`),
    ),
  );
