import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows as resultRows } from '../db/migrate';
import { releases } from '../db/schema';
import { enqueue, insertJobsFrom } from '../queue/queue';
import { RELEASE_PUBLISH_QUEUE, rowJobs, rowKey, SWEEP_LIMIT, type RowKey } from '../queue/queues';
import { keysRelation, waitingRows, type WaitingRow } from '../queue/rows';

/** A release claimed to run its scheduled publish. */
export interface ClaimedRelease extends RowKey {
  scheduledBy: string;
}

const isDue = sql`r.publish_at <= now() and r.state <> 'published'
  and (r.schedule_status = 'pending' or (r.schedule_status = 'running' and r.lease_until < now()))`;

/**
 * What a release's row holds about its schedule once its time is set (pending, run with the rights of
 * `userId`) or cleared; the job for the time is queued by `queueScheduledPublish`.
 */
export const scheduleFields = (publishAt: Date | null, userId: string) =>
  publishAt
    ? { scheduleStatus: 'pending' as const, scheduledBy: userId, lastError: null, leaseUntil: null }
    : { scheduleStatus: null, scheduledBy: null, lastError: null, leaseUntil: null };

/**
 * A job for the release's time, in the transaction that set it. Its key holds the time: a job queued
 * for an earlier time does not keep the one for a new time from being queued (a job that finds its
 * release not due, or not pending, does nothing).
 */
export async function queueScheduledPublish(tx: Tx, release: RowKey, publishAt: Date) {
  await enqueue(
    tx,
    RELEASE_PUBLISH_QUEUE,
    { workspaceId: release.workspaceId, id: release.id },
    { startAfter: publishAt, singletonKey: `${rowKey(release)}@${publishAt.toISOString()}` },
  );
}

/**
 * Claims those of the releases `keys` whose scheduled publish is due, in one statement: pending ones
 * whose time has come, and running ones whose lease ran out (their process died). FOR UPDATE SKIP
 * LOCKED keeps two processes from taking the same release.
 */
export async function claimDueReleases(db: Db, keys: RowKey[], leaseMs: number): Promise<ClaimedRelease[]> {
  const result = await db.execute(sql`
    with due as (
      select r.workspace_id, r.id from releases r join ${keysRelation(keys)} using (workspace_id, id)
      where ${isDue}
      for update of r skip locked
    )
    update releases r set schedule_status = 'running', lease_until = now() + ${leaseMs} * interval '1 millisecond'
    from due where r.workspace_id = due.workspace_id and r.id = due.id
    returning r.workspace_id, r.id, r.scheduled_by`);
  return resultRows<Record<string, unknown>>(result).map((r) => ({
    workspaceId: r.workspace_id as string,
    id: r.id as string,
    scheduledBy: r.scheduled_by as string,
  }));
}

/** Those of the releases `keys` whose scheduled publish is still to run, with when. */
export async function waitingReleases(db: Db, keys: RowKey[]): Promise<WaitingRow[]> {
  const result = await db.execute(sql`
    select r.workspace_id, r.id,
      case when r.schedule_status = 'running' then r.lease_until else r.publish_at end as due_at
    from releases r join ${keysRelation(keys)} using (workspace_id, id)
    where r.schedule_status in ('pending', 'running') and r.state <> 'published'`);
  return waitingRows(result, 'due_at');
}

/** A job for each release whose scheduled publish is due by now (the sweep: jobs lost). */
export const queueDueReleases = (db: Db) =>
  db.execute(
    insertJobsFrom(RELEASE_PUBLISH_QUEUE, rowJobs(sql`releases r where ${isDue} limit ${SWEEP_LIMIT}`)),
  );

/**
 * Records why a scheduled publish did not happen (the release stays as it was), unless the run is no
 * longer the release's to record: a change cleared its schedule, or a new time replaced it.
 */
export async function refuseScheduledPublish(db: Db, release: ClaimedRelease, reason: string) {
  await db
    .update(releases)
    .set({ scheduleStatus: 'refused', lastError: reason, ranAt: sql`now()`, leaseUntil: null })
    .where(
      and(
        eq(releases.workspaceId, release.workspaceId),
        eq(releases.id, release.id),
        eq(releases.scheduleStatus, 'running'),
        eq(releases.scheduledBy, release.scheduledBy),
      ),
    );
}
