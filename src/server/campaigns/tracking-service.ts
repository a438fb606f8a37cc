import { CAMPAIGN_MESSAGES, EMAIL_EVENTS } from '@shared/api/campaigns';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { findProfile } from '../customers/repository';
import { insertSuppression } from '../customers/suppression-repository';
import { notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { journal, type Actor } from '../journal/journal';
import { ensureRecordedEvents, recordEmailEvent } from './email-events';
import { clickTarget } from './compose';
import { recordEngagement } from './engagement';
import { verifyToken, type TokenKind } from './tokens';
import * as repo from './tracking-repository';

/** How a consent changed by the links of a campaign message is sourced on the profile. */
const UNSUBSCRIBE_SOURCE = 'unsubscribe link';

/** Who acts when a recipient follows a message's unsubscribe link: no member, the request's address. */
const recipientActor = (address: string | null): Actor => ({
  id: 'email-recipient',
  name: 'Email recipient',
  address,
});

/** The recipient a token names, or 404 with CAMPAIGN_MESSAGES.badToken (forged, altered, of another kind or send). */
async function recipientOf(ctx: AppContext, token: string, kind: TokenKind) {
  const fields = verifyToken(token, kind, ctx.config.secret);
  const recipient = fields && (await repo.findRecipient(ctx.db, fields.workspaceId, fields.sendId, fields.n));
  if (!fields || !recipient) throw notFound(CAMPAIGN_MESSAGES.badToken);
  return { recipient, link: fields.link };
}

/**
 * `GET /t/o/{token}`: the recipient opened the message; recorded once (then counted) unless tracking
 * is off or `record` is false (a HEAD request: a link checker, not a reader).
 */
export async function recordOpen(ctx: AppContext, token: string, record = true) {
  const { recipient } = await recipientOf(ctx, token, 'o');
  if (!recipient.tracking || !record) return;
  await ensureRecordedEvents(ctx, recipient.workspace_id);
  const at = new Date();
  await ctx.db.transaction(async (tx) => {
    const first = await recordEngagement(tx, engagementOf(recipient, 'open', 0, at));
    if (first) await recordProfileEvent(tx, recipient, 'open', at);
  });
}

/**
 * `GET /t/c/{token}`: the URL of the link the recipient clicked, only ever one of the send's own
 * links (404 for a number the message does not have). Records the click per link, and an open when
 * none was recorded (images blocked), unless tracking is off or `record` is false (a HEAD request).
 */
export async function recordClick(ctx: AppContext, token: string, record = true) {
  const { recipient, link } = await recipientOf(ctx, token, 'c');
  const written =
    link > 0 && (await repo.findLinkUrl(ctx.db, recipient.workspace_id, recipient.send_id, link));
  const url = written && (await linkTarget(ctx, recipient, written));
  if (!url) throw notFound(CAMPAIGN_MESSAGES.badToken);
  if (!recipient.tracking || !record) return url;
  await ensureRecordedEvents(ctx, recipient.workspace_id);
  const at = new Date();
  await ctx.db.transaction(async (tx) => {
    if (await recordEngagement(tx, engagementOf(recipient, 'click', link, at))) {
      await recordProfileEvent(tx, recipient, 'click', at, { link, url });
    }
    if (await recordEngagement(tx, engagementOf(recipient, 'open', 0, at), { once: true })) {
      await recordProfileEvent(tx, recipient, 'open', at);
    }
  });
  return url;
}

/** A link's URL as the recipient's message had it: merge tags filled from their profile (none when erased). */
async function linkTarget(ctx: AppContext, recipient: repo.RecipientRecord, url: string) {
  if (!url.includes('{{')) return url;
  const profile = await findProfile(ctx.db, recipient.workspace_id, recipient.profile_id);
  return profile ? clickTarget(url, profile.attributes) : undefined;
}

/** What the unsubscribe page shows: the workspace, the address (partly hidden) and its state. */
export async function unsubscribeState(ctx: AppContext, token: string) {
  const { recipient } = await recipientOf(ctx, token, 'u');
  return presentState(recipient, await repo.isUnsubscribed(ctx.db, recipient));
}

const presentState = (recipient: repo.RecipientRecord, unsubscribed: boolean) => ({
  workspaceName: recipient.workspace_name,
  address: maskAddress(recipient.email),
  unsubscribed,
});

/** `j•••@example.com`: enough for its owner to recognise, little for whoever else holds the link. */
function maskAddress(email: string) {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/**
 * `POST /u/{token}` (one click, RFC 8058, or the page's button): the profile's email consent becomes
 * unsubscribed, the address goes on the suppression list as unsubscribed, and the unsubscribe is
 * recorded on the send and as the profile's email-unsubscribed event; journaled when something
 * changed. A repeat changes nothing but the engagement's count.
 */
export async function unsubscribe(ctx: AppContext, token: string, address: string | null) {
  const { recipient } = await recipientOf(ctx, token, 'u');
  await unsubscribeRecipient(ctx, recipient, recipientActor(address));
  return presentState(recipient, true);
}

/** The unsubscribe of a recipient by its own link or a provider's report of it, in one transaction. */
export async function unsubscribeRecipient(
  ctx: AppContext,
  recipient: repo.RecipientRecord,
  actor: Actor,
  at = new Date(),
) {
  await ensureRecordedEvents(ctx, recipient.workspace_id);
  await ctx.db.transaction(async (tx) => {
    const changed = await consentTo(tx, recipient, 'unsubscribed');
    const listed = (await suppress(tx, recipient, 'unsubscribed', actor)) !== undefined;
    if (await recordEngagement(tx, engagementOf(recipient, 'unsubscribe', 0, at))) {
      await recordProfileEvent(tx, recipient, 'unsubscribe', at);
    }
    if (changed || listed) {
      await journalConsent(tx, recipient, actor, 'profile.unsubscribed', { suppressed: listed });
    }
  });
}

/**
 * `POST /u/{token}/resubscribe`: undoes an unsubscribe. Consent becomes subscribed and the address's
 * `unsubscribed` suppression entry goes; one of any other reason (bounced, complained, erased,
 * manual) stays, and so does the record that the unsubscribe happened.
 */
export async function resubscribe(ctx: AppContext, token: string, address: string | null) {
  const { recipient } = await recipientOf(ctx, token, 'u');
  await ctx.db.transaction(async (tx) => {
    const changed = await consentTo(tx, recipient, 'subscribed');
    const removed = await repo.deleteUnsubscribedSuppressions(
      tx,
      recipient.workspace_id,
      recipient.email,
      recipient.profile_id,
    );
    if (changed || removed.length) {
      await journalConsent(tx, recipient, recipientActor(address), 'profile.resubscribed', {
        unsuppressed: removed.length,
      });
    }
  });
  return presentState(recipient, false);
}

const consentTo = (tx: Tx, recipient: repo.RecipientRecord, state: 'subscribed' | 'unsubscribed') =>
  repo.setEmailConsent(tx, recipient.workspace_id, recipient.profile_id, state, UNSUBSCRIBE_SOURCE);

const journalConsent = (
  tx: Tx,
  recipient: repo.RecipientRecord,
  actor: Actor,
  action: 'profile.unsubscribed' | 'profile.resubscribed',
  detail: Record<string, unknown>,
) =>
  journal(tx, {
    audit: [
      {
        workspaceId: recipient.workspace_id,
        user: actor,
        action,
        targetType: 'profile',
        targetId: recipient.profile_id,
        detail: { campaign: recipient.campaign_id, send: recipient.send_id, ...detail },
      },
    ],
  });

/**
 * Puts the recipient's address on the suppression list (the address, not the profile id: a listed
 * profile id would also keep the customer's imports and tracked events out). Answers the new entry's
 * id; undefined when the address or profile is listed already, for whatever reason.
 */
export async function suppress(
  tx: Tx,
  recipient: repo.RecipientRecord,
  reason: 'unsubscribed' | 'bounced' | 'complained',
  actor: Actor,
  note: string | null = null,
) {
  const row = await insertSuppression(tx, recipient.workspace_id, {
    id: randomId(),
    profileId: null,
    email: recipient.email,
    reason,
    note,
    createdBy: null,
    createdByName: actor.name,
  });
  return row?.id;
}

export const engagementOf = (
  recipient: repo.RecipientRecord,
  kind: Parameters<typeof recordEngagement>[1]['kind'],
  link: number,
  at: Date,
) => ({ workspaceId: recipient.workspace_id, sendId: recipient.send_id, n: recipient.n, kind, link, at });

const EVENT_OF = {
  open: EMAIL_EVENTS.opened,
  click: EMAIL_EVENTS.clicked,
  bounce: EMAIL_EVENTS.bounced,
  unsubscribe: EMAIL_EVENTS.unsubscribed,
} as const;

/** The engagement's email-* event on the recipient's profile, unless it was erased or suppressed since. */
export async function recordProfileEvent(
  tx: Tx,
  recipient: repo.RecipientRecord,
  kind: keyof typeof EVENT_OF,
  at: Date,
  click?: { link: number; url: string },
) {
  if (!(await repo.mayWriteEvents(tx, recipient.workspace_id, recipient.profile_id))) return;
  await recordEmailEvent(tx, {
    workspaceId: recipient.workspace_id,
    profileId: recipient.profile_id,
    key: EVENT_OF[kind],
    campaignId: recipient.campaign_id,
    sendId: recipient.send_id,
    n: recipient.n,
    kind,
    link: click?.link,
    url: click?.url,
    at,
  });
}
