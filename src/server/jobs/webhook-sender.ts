import { SIGNATURE_HEADER } from '@shared/api/webhooks';
import type { AppContext } from '../context';
import { publicOnlyLookup, webhookUrl } from '../webhooks/addresses';
import { claimDeliveries, recordTry, waitingDeliveries, type ClaimedDelivery } from '../webhooks/repository';
import { openSecret } from '../lib/secret-box';
import { WEBHOOK_SECRET_PURPOSE } from '../webhooks/service';
import { signatureHeader } from '../webhooks/signature';
import { postJson, type PostOutcome } from './post-json';
import { enqueue } from '../queue/queue';
import { rowKey, WEBHOOK_DELIVERY_QUEUE, type RowKey } from '../queue/queues';
import { requeueWaiting } from '../queue/rows';
import { jobLeaseMs } from './lease';

/** Tries before a delivery counts as failed: retries wait 10 s, 20 s, 40 s … (at most 20 min), about an hour in all. */
export const WEBHOOK_MAX_TRIES = 10;

/** The wait before the next try after `tries` failed ones: base, then doubling, capped at 120 × base. */
export function retryDelayMs(tries: number, baseMs: number) {
  return Math.min(baseMs * 2 ** (tries - 1), baseMs * 120);
}

/**
 * Sends the deliveries of a batch of jobs: those due are claimed and sent; those not due yet, or held by
 * another try, get a job again for when they are. `stopping` aborts requests under way.
 */
export async function sendWebhooks(ctx: AppContext, keys: RowKey[], stopping: AbortSignal) {
  const leaseMs = jobLeaseMs(ctx.config);
  const claimed = await claimDeliveries(ctx.db, keys, leaseMs);
  await Promise.all(claimed.map((delivery) => sendOne(ctx, delivery, leaseMs, stopping)));
  if (claimed.length < keys.length)
    await requeueWaiting(ctx.db, WEBHOOK_DELIVERY_QUEUE, await waitingDeliveries(ctx.db, keys));
}

async function sendOne(ctx: AppContext, delivery: ClaimedDelivery, leaseMs: number, stopping: AbortSignal) {
  const { statusCode, error } = await tryDelivery(ctx, delivery, leaseMs, stopping);
  const delivered = error === null;
  const interrupted = stopping.aborted && !delivered;
  const nextAt = delivered
    ? null
    : interrupted
      ? new Date()
      : delivery.tries < WEBHOOK_MAX_TRIES && delivery.active
        ? new Date(Date.now() + retryDelayMs(delivery.tries, ctx.config.webhookRetryBaseMs))
        : null;
  await ctx.db.transaction(async (tx) => {
    await recordTry(tx, delivery, { delivered, statusCode, error, nextAt });
    if (nextAt)
      await enqueue(
        tx,
        WEBHOOK_DELIVERY_QUEUE,
        { workspaceId: delivery.workspaceId, id: delivery.id },
        { singletonKey: rowKey(delivery), startAfter: nextAt },
      );
  });
}

async function tryDelivery(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  leaseMs: number,
  stopping: AbortSignal,
): Promise<PostOutcome> {
  let headers: Record<string, string>;
  try {
    if (!delivery.active) throw new Error('The webhook is inactive');
    webhookUrl(delivery.url, ctx.config.webhookAllowPrivate);
    headers = {
      'user-agent': 'Marquee-Webhooks/1',
      [SIGNATURE_HEADER]: signatureHeader(
        openSecret(ctx.config.secret, WEBHOOK_SECRET_PURPOSE, delivery.secret),
        delivery.body,
      ),
    };
  } catch (err) {
    return { statusCode: null, error: err instanceof Error ? err.message : String(err) };
  }
  // A name is resolved and checked again as the request connects, to the address it connects to.
  const lookup = ctx.config.webhookAllowPrivate ? undefined : publicOnlyLookup;
  return postJson(delivery.url, delivery.body, headers, stopping, leaseMs, lookup);
}
