import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows as resultRows } from '../db/migrate';
import { schedules } from '../db/schema';
import type { ItemKey } from '../items/repository';
import { insertJobsFrom } from '../queue/queue';
import { rowJobs, SCHEDULE_QUEUE, SWEEP_LIMIT, type RowKey } from '../queue/queues';
import { keysRelation, waitingRows, type WaitingRow } from '../queue/rows';

export type ScheduleRow = typeof schedules.$inferSelect;

export async function insertSchedule(tx: Tx, row: typeof schedules.$inferInsert) {
  const [inserted] = await tx.insert(schedules).values(row).returning();
  return inserted;
}

const ofItem = (key: ItemKey) =>
  and(
    eq(schedules.workspaceId, key.workspaceId),
    eq(schedules.schema, key.schema),
    eq(schedules.itemId, key.id),
  );

/** An item's schedules, newest planned time first. */
export async function listSchedules(db: Db, key: ItemKey) {
  return db
    .select()
    .from(schedules)
    .where(ofItem(key))
    .orderBy(desc(schedules.at), desc(schedules.id))
    .limit(100);
}

/** Cancels a pending schedule; answers it, or undefined when it is not pending (or not there). */
export async function cancelSchedule(tx: Tx, key: ItemKey, id: string) {
  const [row] = await tx
    .update(schedules)
    .set({ status: 'cancelled' })
    .where(and(ofItem(key), eq(schedules.id, id), eq(schedules.status, 'pending')))
    .returning();
  return row;
}

export async function findSchedule(db: Db | Tx, key: ItemKey, id: string) {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(ofItem(key), eq(schedules.id, id)));
  return row;
}

/**
 * Claims those of the schedules `keys` that are due, in one statement: pending ones whose time has come,
 * and running ones whose lease ran out (their process died). FOR UPDATE SKIP LOCKED keeps two processes
 * from taking the same row; the lease keeps a job tried again while its first try still runs from
 * running the schedule twice.
 */
export async function claimSchedules(db: Db, keys: RowKey[], leaseMs: number): Promise<ScheduleRow[]> {
  const result = await db.execute(sql`
    with due as (
      select s.workspace_id, s.id from schedules s join ${keysRelation(keys)} using (workspace_id, id)
      where ${isDue}
      for update of s skip locked
    )
    update schedules s set status = 'running', lease_until = now() + ${leaseMs} * interval '1 millisecond'
    from due where s.workspace_id = due.workspace_id and s.id = due.id
    returning s.*`);
  return resultRows<Record<string, unknown>>(result).map((r) => ({
    workspaceId: r.workspace_id as string,
    id: r.id as string,
    schema: r.schema as string,
    itemId: r.item_id as string,
    stage: r.stage as string,
    action: r.action as ScheduleRow['action'],
    at: new Date(r.at as string),
    status: r.status as ScheduleRow['status'],
    reason: (r.reason as string | null) ?? null,
    leaseUntil: r.lease_until ? new Date(r.lease_until as string) : null,
    ranAt: r.ran_at ? new Date(r.ran_at as string) : null,
    createdAt: new Date(r.created_at as string),
    createdBy: r.created_by as string,
    createdByName: r.created_by_name as string,
  }));
}

const isDue = sql`s.at <= now() and (s.status = 'pending' or (s.status = 'running' and s.lease_until < now()))`;

/** Those of the schedules `keys` still to run, with when: their time, or the end of a try's lease. */
export async function waitingSchedules(db: Db, keys: RowKey[]): Promise<WaitingRow[]> {
  const result = await db.execute(sql`
    select s.workspace_id, s.id, case when s.status = 'running' then s.lease_until else s.at end as due_at
    from schedules s join ${keysRelation(keys)} using (workspace_id, id)
    where s.status in ('pending', 'running')`);
  return waitingRows(result, 'due_at');
}

/** A job for each schedule due by now (the sweep: schedules whose job was lost or that predate the queue). */
export const queueDueSchedules = (db: Db) =>
  db.execute(insertJobsFrom(SCHEDULE_QUEUE, rowJobs(sql`schedules s where ${isDue} limit ${SWEEP_LIMIT}`)));

export async function finishSchedule(db: Db, row: ScheduleRow, outcome: { refusedBecause: string | null }) {
  await db
    .update(schedules)
    .set({
      status: outcome.refusedBecause === null ? 'done' : 'refused',
      reason: outcome.refusedBecause,
      ranAt: sql`now()`,
      leaseUntil: null,
    })
    .where(and(eq(schedules.workspaceId, row.workspaceId), eq(schedules.id, row.id)));
}
