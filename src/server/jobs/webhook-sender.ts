import { SIGNATURE_HEADER } from '@shared/api/webhooks';
import type { AppContext } from '../context';
import { checkWebhookUrl } from '../webhooks/addresses';
import { claimDueDeliveries, recordTry, type ClaimedDelivery } from '../webhooks/repository';
import { openSecret } from '../lib/secret-box';
import { WEBHOOK_SECRET_PURPOSE } from '../webhooks/service';
import { signatureHeader } from '../webhooks/signature';

/** Tries before a delivery counts as failed: retries wait 10 s, 20 s, 40 s … (at most 20 min), about an hour in all. */
export const WEBHOOK_MAX_TRIES = 10;
const TIMEOUT_MS = 10_000;
const BATCH = 10;

/** The wait before the next try after `tries` failed ones: base, then doubling, capped at 120 × base. */
export function retryDelayMs(tries: number, baseMs: number) {
  return Math.min(baseMs * 2 ** (tries - 1), baseMs * 120);
}

/** Claims the due deliveries and sends them; answers how many were tried. `stopping` aborts requests under way. */
export async function sendDueWebhooks(ctx: AppContext, stopping: AbortSignal): Promise<number> {
  // The lease outlives the request timeout, so no other process takes a delivery still being sent.
  const claimed = await claimDueDeliveries(ctx.db, BATCH, TIMEOUT_MS + 5_000);
  await Promise.all(claimed.map((delivery) => sendOne(ctx, delivery, stopping)));
  return claimed.length;
}

async function sendOne(ctx: AppContext, delivery: ClaimedDelivery, stopping: AbortSignal) {
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    if (!delivery.active) throw new Error('The webhook is inactive');
    await checkWebhookUrl(delivery.url, ctx.config.webhookAllowPrivate);
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Marquee-Webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(
          openSecret(ctx.config.secret, WEBHOOK_SECRET_PURPOSE, delivery.secret),
          delivery.body,
        ),
      },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([stopping, AbortSignal.timeout(TIMEOUT_MS)]),
    });
    statusCode = response.status;
    await response.body?.cancel();
    if (statusCode < 200 || statusCode >= 300) error = `Answered HTTP ${statusCode}`;
  } catch (err) {
    error = stopping.aborted
      ? 'Interrupted by a server shutdown'
      : err instanceof Error
        ? err.message
        : String(err);
  }
  const delivered = error === null;
  const interrupted = stopping.aborted && !delivered;
  const nextAt = delivered
    ? null
    : interrupted
      ? new Date()
      : delivery.tries < WEBHOOK_MAX_TRIES && delivery.active
        ? new Date(Date.now() + retryDelayMs(delivery.tries, ctx.config.webhookRetryBaseMs))
        : null;
  await recordTry(ctx.db, delivery, { delivered, statusCode, error, nextAt });
}
