import type { AppContext } from '../context';
import {
  claimDuePurges,
  deletePurges,
  recordFailedPurges,
  type ClaimedPurge,
} from '../delivery/purge-repository';
import { postJson, SEND_LEASE_MS } from './post-json';
import { retryDelayMs, WEBHOOK_MAX_TRIES } from './webhook-sender';

/** Purges queued by this many changes at most go out as one request. */
const BATCH = 100;

/**
 * Claims the due CDN purges and sends them as one request, `{"keys": [...]}` with each key once, to
 * `DELIVERY_PURGE_URL`; answers how many purges were tried. A refused request is tried again with the
 * webhooks' backoff and, once the tries run out, logged and kept as failed: the publish it came from
 * stands either way.
 */
export async function sendDuePurges(ctx: AppContext, stopping: AbortSignal): Promise<number> {
  const target = ctx.config.deliveryPurge;
  if (!target) return 0;
  const claimed = await claimDuePurges(ctx.db, BATCH, SEND_LEASE_MS);
  if (claimed.length === 0) return 0;
  const keys = [...new Set(claimed.flatMap((purge) => purge.keys))];
  const { error } = await postJson(
    target.url,
    JSON.stringify({ keys }),
    {
      'user-agent': 'Marquee-Purge/1',
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
    },
    stopping,
  );
  if (error === null) await deletePurges(ctx.db, claimed);
  else await recordFailure(ctx, claimed, error, stopping.aborted);
  return claimed.length;
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
    await recordFailedPurges(ctx.db, purges, { error, nextAt });
    const about = { purges: purges.map((purge) => purge.id), tries, error };
    if (givenUp) ctx.log.error(about, 'CDN purge failed for good');
    else if (!interrupted) ctx.log.warn(about, 'CDN purge failed; it will be tried again');
  }
}
