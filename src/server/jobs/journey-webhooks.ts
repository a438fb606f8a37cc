import { SIGNATURE_HEADER } from '@shared/api/webhooks';
import type { AppContext } from '../context';
import { recordWebhookTry, webhookBody, type WebhookCall, type WebhookSender } from '../journeys/engine';
import { journeyWebhookSecret } from '../journeys/limits';
import { publicOnlyLookup, webhookUrl } from '../webhooks/addresses';
import { signatureHeader } from '../webhooks/signature';
import { jobLeaseMs } from './lease';
import { postJson, type PostOutcome } from './post-json';
import { retryDelayMs } from './webhook-sender';

/** Tries of a journey's webhook step before it takes its `failed` exit. */
const JOURNEY_WEBHOOK_TRIES = 5;

/**
 * The job worker's sender of journey webhook steps: POSTs the profile and the journey to the step's
 * URL, signed with the workspace's journey webhook secret as Marquee's webhooks are
 * (X-Marquee-Signature), with `x-marquee-delivery` the same on every try of one step; a failure is
 * tried again through the job queue with the webhooks' back-off. A server stopping tries again at once.
 */
export function journeyWebhookSender(ctx: AppContext, stopping: AbortSignal): WebhookSender {
  const leaseMs = jobLeaseMs(ctx.config);
  return {
    leaseMs,
    async send(call: WebhookCall) {
      let outcome: PostOutcome;
      try {
        const url = call.step.url!.trim();
        webhookUrl(url, ctx.config.webhookAllowPrivate);
        const body = await webhookBody(ctx, call);
        const headers = {
          'user-agent': 'Marquee-Journeys/1',
          'x-marquee-delivery': `${call.task.runId}:${call.task.seq}`,
          [SIGNATURE_HEADER]: signatureHeader(await journeyWebhookSecret(ctx, call.task.workspaceId), body),
        };
        // A name is resolved and checked again as the request connects, to the address it connects to.
        const lookup = ctx.config.webhookAllowPrivate ? undefined : publicOnlyLookup;
        outcome = await postJson(url, body, headers, stopping, leaseMs, lookup);
      } catch (err) {
        outcome = { statusCode: null, error: err instanceof Error ? err.message : String(err) };
      }
      const retryAt =
        outcome.error === null
          ? null
          : stopping.aborted
            ? new Date()
            : call.tries < JOURNEY_WEBHOOK_TRIES
              ? new Date(Date.now() + retryDelayMs(call.tries, ctx.config.webhookRetryBaseMs))
              : null;
      await recordWebhookTry(ctx, call, outcome, retryAt);
    },
  };
}
