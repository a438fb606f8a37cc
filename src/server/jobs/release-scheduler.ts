import type { AppContext } from '../context';
import { claimDueReleases, waitingReleases } from '../releases/schedule-repository';
import { runScheduledRelease } from '../releases/scheduled-publish';
import { RELEASE_PUBLISH_QUEUE, type RowKey } from '../queue/queues';
import { requeueWaiting } from '../queue/rows';
import { jobLeaseMs } from './lease';

/**
 * The job of scheduled releases: runs those due (claimed one at a time, so the lease covers one run);
 * those not due yet, held by another try, or whose run failed get a job again for when they are due.
 */
export async function runReleaseJobs(ctx: AppContext, keys: RowKey[]) {
  for (const key of keys) {
    const [claimed] = await claimDueReleases(ctx.db, [key], jobLeaseMs(ctx.config));
    if (!claimed) continue;
    try {
      await runScheduledRelease(ctx, claimed);
    } catch (err) {
      ctx.log.error({ err, release: claimed.id }, 'scheduled release failed');
    }
  }
  await requeueWaiting(ctx.db, RELEASE_PUBLISH_QUEUE, await waitingReleases(ctx.db, keys));
}
