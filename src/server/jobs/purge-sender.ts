import type { AppContext } from '../context';
import {
  claimPurges,
  deletePurges,
  recordFailedPurges,
  waitingPurges,
  type ClaimedPurge,
} from '../delivery/purge-repository';
import { jobLeaseMs } from './lease';
import { postJson } from './post-json';
import { enqueueMany } from '../queue/queue';
import { DELIVERY_PURGE_QUEUE, rowKey, type RowKey } from '../queue/queues';
import { requeueWaiting } from '../queue/rows';
import { retryDelayMs, WEBHOOK_MAX_TRIES } from './webhook-sender';

/** Purges queued by this many changes at most go out as one request (the jobs' batch). */
export const PURGE_BATCH = 100;

/**
 * Claims the due CDN purges of a batch of jobs and sends them as one request, `{"keys": [...]}` with each
 * key once, to `DELIVERY_PURGE_URL`. A refused request is tried again with the webhooks' backoff and,
 * once the tries run out, logged and kept as failed: the publish it came from stands either way. Purges
 * not due yet (or held by another try) get a job again for when they are.
 */
export async function sendPurges(ctx: AppContext, jobs: RowKey[], stopping: AbortSignal) {
  const target = ctx.config.deliveryPurge;
  if (!target) return;
  const leaseMs = jobLeaseMs(ctx.config);
  const claimed = await claimPurges(ctx.db, jobs, leaseMs);
  if (claimed.length > 0) {
    const keys = [...new Set(claimed.flatMap((purge) => purge.keys))];
    const { error } = await postJson(
      target.url,
      JSON.stringify({ keys }),
      {
        'user-agent': 'Marquee-Purge/1',
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      },
      stopping,
      leaseMs,
    );
    if (error === null) await deletePurges(ctx.db, claimed);
    else await recordFailure(ctx, claimed, error, stopping.aborted);
  }
  // After the failed ones got their retry's job: the one per row a requeue would add is then dropped.
  if (claimed.length < jobs.length)
    await requeueWaiting(ctx.db, DELIVERY_PURGE_QUEUE, await waitingPurges(ctx.db, jobs));
}

async function recordFailure(ctx: AppContext, claimed: ClaimedPurge[], error: string, interrupted: boolean) {
  // Each purge waits as its own tries say; purges queued together have tried equally often.
  for (const tries of new Set(claimed.map((purge) => purge.tries))) {
    const purges = claimed.filter((purge) => purge.tries === tries);
    const givenUp = !interrupted && tries >= WEBHOOK_MAX_TRIES;
    const nextAt = interrupted
      ? new Date()
      : givenUp
        ? null
        : new Date(Date.now() + retryDelayMs(tries, ctx.config.webhookRetryBaseMs));
    await ctx.db.transaction(async (tx) => {
      await recordFailedPurges(tx, purges, { error, nextAt });
      if (nextAt) {
        const jobs = purges.map((purge) => ({
          data: keyOf(purge),
          singletonKey: rowKey(purge),
          startAfter: nextAt,
        }));
        await enqueueMany(tx, DELIVERY_PURGE_QUEUE, jobs);
      }
    });
    const about = { purges: purges.map((purge) => purge.id), tries, error };
    if (givenUp) ctx.log.error(about, 'CDN purge failed for good');
    else if (!interrupted) ctx.log.warn(about, 'CDN purge failed; it will be tried again');
  }
}

const keyOf = (purge: ClaimedPurge): RowKey => ({ workspaceId: purge.workspaceId, id: purge.id });
