import type { AppContext } from '../context';
import { claimSchedules, waitingSchedules } from '../schedules/repository';
import { runSchedule } from '../schedules/service';
import { jobLeaseMs } from './lease';
import { SCHEDULE_QUEUE, type RowKey } from '../queue/queues';
import { requeueWaiting } from '../queue/rows';

/**
 * Runs the schedules of a batch of jobs that are due; those not due yet (or held by another try) get a
 * job again for when they are, and so does one whose run failed (once its lease is over). A cancelled
 * or finished schedule is left alone.
 */
export async function runSchedules(ctx: AppContext, keys: RowKey[]) {
  for (const key of keys) {
    // Claimed one at a time, just before it runs: the lease covers its run, not the batch's.
    const [row] = await claimSchedules(ctx.db, [key], jobLeaseMs(ctx.config));
    if (!row) continue;
    try {
      await runSchedule(ctx, row);
    } catch (err) {
      ctx.log.error({ err, schedule: row.id }, 'scheduled publish failed');
    }
  }
  // Those not claimed, and those claimed whose run failed (still running: due again after the lease).
  await requeueWaiting(ctx.db, SCHEDULE_QUEUE, await waitingSchedules(ctx.db, keys));
}
