import type crypto from 'node:crypto';
import {
  SENDGRID_WEBHOOK_SETTING,
  TRACKING_MESSAGES,
  type EmailHookAnswer,
  type SmtpBounceBody,
} from '@shared/api/campaign-tracking';
import { SUPPRESSION_NOTE_MAX } from '@shared/api/customers';
import type { AppContext } from '../context';
import { badRequest, forbidden, notConfigured } from '../http/errors';
import { withoutUnsafeText } from '../http/input-guard';
import { journal, type Actor } from '../journal/journal';
import { ensureRecordedEvents } from './email-events';
import { recordEngagement } from './engagement';
import { isSignedEventBody, webhookPublicKey } from './sendgrid-signature';
import { verifyToken } from './tokens';
import * as repo from './tracking-repository';
import { engagementOf, recordProfileEvent, suppress, unsubscribeRecipient } from './tracking-service';

/** What a provider reported of one recipient that is recorded for good. */
type Outcome = 'bounce' | 'complaint' | 'unsubscribe';

const providerActor = (name: string, address: string | null): Actor => ({
  id: `email-provider:${name.toLowerCase()}`,
  name,
  address,
});

/** The recipient a provider's event names by its unsubscribe token (or the URL holding it), if any. */
async function recipientOfToken(ctx: AppContext, text: unknown) {
  if (typeof text !== 'string' || text.length > 2000) return undefined;
  const token = text.includes('/')
    ? text
        .replace(/[?#].*$/, '')
        .split('/')
        .pop()!
    : text;
  const fields = verifyToken(token, 'u', ctx.config.secret);
  return fields ? repo.findRecipient(ctx.db, fields.workspaceId, fields.sendId, fields.n) : undefined;
}

/** An HTML tag or comment; `<user@example.com>` in a bounce's diagnostic is no tag and stays. */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/][^<>]*)?(?:>|$)/g;

/**
 * What a provider said, as the plain text a suppression's note is: markup and control characters
 * removed, runs of white space made one space, at most SUPPRESSION_NOTE_MAX characters.
 */
function plainNote(reported: string) {
  const text = reported
    .slice(0, 16 * SUPPRESSION_NOTE_MAX)
    .replace(MARKUP, ' ')
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
  return withoutUnsafeText(Array.from(text).slice(0, SUPPRESSION_NOTE_MAX).join('')) || null;
}

/**
 * A hard bounce or a complaint: the address goes on the suppression list (`bounced`, `complained`),
 * the send records it, and a bounce is also the profile's email-bounced event. An unsubscribe the
 * provider handled is recorded as the recipient's own. Journaled when the list changed. The note is
 * what the provider said, cut short and made storable: SendGrid's events are not refused for their
 * text (it would post the whole batch again and again), nor is a refusal the send engine heard.
 */
async function recordOutcome(
  ctx: AppContext,
  recipient: repo.RecipientRecord,
  outcome: Outcome,
  actor: Actor,
  at: Date,
  reported: string | null,
) {
  const note = reported === null ? null : plainNote(reported);
  if (outcome === 'unsubscribe') return unsubscribeRecipient(ctx, recipient, actor, at);
  await ensureRecordedEvents(ctx, recipient.workspace_id);
  await ctx.db.transaction(async (tx) => {
    const reason = outcome === 'bounce' ? 'bounced' : 'complained';
    const suppressionId = await suppress(tx, recipient, reason, actor, note);
    const first = await recordEngagement(tx, engagementOf(recipient, outcome, 0, at));
    if (first && outcome === 'bounce') await recordProfileEvent(tx, recipient, 'bounce', at);
    if (!suppressionId) return;
    await journal(tx, {
      audit: [
        {
          workspaceId: recipient.workspace_id,
          user: actor,
          action: 'suppression.added',
          targetType: 'suppression',
          targetId: suppressionId,
          detail: { reason, campaign: recipient.campaign_id, send: recipient.send_id },
        },
      ],
    });
  });
}

/** A SendGrid event's time (seconds since the epoch), or now when it has none that makes sense. */
function eventTime(timestamp: unknown) {
  const seconds = Number(timestamp);
  const ms = seconds * 1000;
  return Number.isFinite(ms) && ms > 0 && ms <= Date.now() + 86_400_000 ? new Date(ms) : new Date();
}

/**
 * What a SendGrid event means for good: a bounce of type `bounce` (not `blocked`, a soft refusal) is
 * hard; `spamreport` is a complaint; `unsubscribe` and `group_unsubscribe` an unsubscribe. The rest
 * (processed, deferred, dropped, delivered, open, click) records nothing here: the send engine records
 * deliveries, and opens and clicks come through the message's own tracking links.
 */
function outcomeOf(event: Record<string, unknown>): Outcome | undefined {
  switch (event.event) {
    case 'bounce':
      return event.type === undefined || event.type === 'bounce' ? 'bounce' : undefined;
    case 'spamreport':
      return 'complaint';
    case 'unsubscribe':
    case 'group_unsubscribe':
      return 'unsubscribe';
    default:
      return undefined;
  }
}

/** The marquee_token custom argument of a SendGrid event: top-level, or under custom_args / unique_args. */
function tokenOf(event: Record<string, unknown>) {
  for (const holder of [event, event.custom_args, event.unique_args]) {
    if (holder && typeof holder === 'object' && 'marquee_token' in holder)
      return (holder as { marquee_token: unknown }).marquee_token;
  }
  return undefined;
}

let cachedKey: { text: string; key: crypto.KeyObject } | undefined;
const publicKeyOf = (text: string) => {
  if (cachedKey?.text !== text) cachedKey = { text, key: webhookPublicKey(text) };
  return cachedKey.key;
};

/**
 * `POST /hooks/email/sendgrid`: a batch of SendGrid Event Webhook events, taken only signed: without
 * SENDGRID_WEBHOOK_PUBLIC_KEY it answers 503 `not_configured` (anyone holding a recipient's
 * unsubscribe token could otherwise report them as a complainer), and the body must carry a valid
 * signature over its timestamp and raw bytes (403 otherwise). Each event is mapped to its recipient
 * by its marquee_token; one without a valid token, or of a kind not recorded, is counted as ignored.
 */
export async function sendgridEvents(
  ctx: AppContext,
  body: Buffer,
  headers: { signature?: string; timestamp?: string },
  address: string | null,
): Promise<EmailHookAnswer> {
  const keyText = ctx.config.sendgridWebhookPublicKey;
  if (!keyText) {
    throw notConfigured(TRACKING_MESSAGES.webhookNotConfigured, { setting: SENDGRID_WEBHOOK_SETTING });
  }
  if (!isSignedEventBody(publicKeyOf(keyText), headers.signature, headers.timestamp, body)) {
    throw forbidden(TRACKING_MESSAGES.badSignature);
  }
  let events: unknown;
  try {
    events = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest(TRACKING_MESSAGES.notJson);
  }
  if (!Array.isArray(events)) throw badRequest(TRACKING_MESSAGES.notEvents);
  const actor = providerActor('SendGrid', address);
  let recorded = 0;
  for (const event of events) {
    if (!event || typeof event !== 'object' || Array.isArray(event)) continue;
    const record = event as Record<string, unknown>;
    const outcome = outcomeOf(record);
    const recipient = outcome && (await recipientOfToken(ctx, tokenOf(record)));
    if (!outcome || !recipient) continue;
    const note = typeof record.reason === 'string' ? record.reason : null;
    await recordOutcome(ctx, recipient, outcome, actor, eventTime(record.timestamp), note);
    recorded += 1;
  }
  return { received: events.length, recorded, ignored: events.length - recorded };
}

/**
 * `POST /hooks/email/smtp`: one bounce read from a delivery status notification. A 5.x.x status for
 * the address the token was sent to is a hard bounce; anything else is ignored.
 */
export async function smtpBounce(
  ctx: AppContext,
  body: SmtpBounceBody,
  address: string | null,
): Promise<EmailHookAnswer> {
  const recipient = await recipientOfToken(ctx, body.token);
  const isHard = body.status.startsWith('5.');
  if (!recipient || !isHard || recipient.email !== body.recipient.trim().toLowerCase()) {
    return { received: 1, recorded: 0, ignored: 1 };
  }
  const note = `${body.status}${body.diagnostic ? ` ${body.diagnostic}` : ''}`;
  await recordOutcome(ctx, recipient, 'bounce', providerActor('SMTP', address), new Date(), note);
  return { received: 1, recorded: 1, ignored: 0 };
}

/** A recipient the mail server refused for good while the send handed it over (a 5xx): a hard bounce. */
export async function bounceRefusedRecipient(
  ctx: AppContext,
  recipient: { workspaceId: string; sendId: string; n: number },
  refusal: string,
) {
  const found = await repo.findRecipient(ctx.db, recipient.workspaceId, recipient.sendId, recipient.n);
  if (!found) return;
  await recordOutcome(ctx, found, 'bounce', providerActor('SMTP', null), new Date(), refusal);
}
