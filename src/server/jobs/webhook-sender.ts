import { SIGNATURE_HEADER } from '@shared/api/webhooks';
import type { AppContext } from '../context';
import { checkWebhookUrl } from '../webhooks/addresses';
import { claimDueDeliveries, recordTry, type ClaimedDelivery } from '../webhooks/repository';
import { openSecret } from '../lib/secret-box';
import { WEBHOOK_SECRET_PURPOSE } from '../webhooks/service';
import { signatureHeader } from '../webhooks/signature';
import { postJson, SEND_LEASE_MS, type PostOutcome } from './post-json';

/** Tries before a delivery counts as failed: retries wait 10 s, 20 s, 40 s … (at most 20 min), about an hour in all. */
export const WEBHOOK_MAX_TRIES = 10;
const BATCH = 10;

/** The wait before the next try after `tries` failed ones: base, then doubling, capped at 120 × base. */
export function retryDelayMs(tries: number, baseMs: number) {
  return Math.min(baseMs * 2 ** (tries - 1), baseMs * 120);
}

/** Claims the due deliveries and sends them; answers how many were tried. `stopping` aborts requests under way. */
export async function sendDueWebhooks(ctx: AppContext, stopping: AbortSignal): Promise<number> {
  const claimed = await claimDueDeliveries(ctx.db, BATCH, SEND_LEASE_MS);
  await Promise.all(claimed.map((delivery) => sendOne(ctx, delivery, stopping)));
  return claimed.length;
}

async function sendOne(ctx: AppContext, delivery: ClaimedDelivery, stopping: AbortSignal) {
  const { statusCode, error } = await tryDelivery(ctx, delivery, stopping);
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

async function tryDelivery(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  stopping: AbortSignal,
): Promise<PostOutcome> {
  let headers: Record<string, string>;
  try {
    if (!delivery.active) throw new Error('The webhook is inactive');
    await checkWebhookUrl(delivery.url, ctx.config.webhookAllowPrivate);
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
  return postJson(delivery.url, delivery.body, headers, stopping);
}
