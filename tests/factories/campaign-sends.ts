import { campaignLinks, campaignRecipients, campaignSends } from '@server/db/schema';
import { signToken, type TokenKind } from '@server/campaigns/tokens';
import { randomId } from '@server/lib/ids';
import type { TestApp } from '../helpers/test-app';

export interface SeededSend {
  id: string;
  campaignId: string;
  /** A signed token of recipient `n` (from 1, in the order given); `link` for click tokens. */
  token(kind: TokenKind, n: number, link?: number): string;
}

/**
 * A campaign send written straight into its tables, as the send engine leaves one once its message
 * went out: sent (or the last `unconfirmed`: unconfirmed) recipients numbered from 1 and the message's
 * links numbered from 1.
 */
export async function seedSend(
  t: TestApp,
  ws: string,
  options: {
    recipients: { profileId: string; email: string }[];
    links?: string[];
    tracking?: boolean;
    campaignId?: string;
    /** The last this many recipients are unconfirmed (their process died awaiting the provider's answer). */
    unconfirmed?: number;
  },
): Promise<SeededSend> {
  const unconfirmed = options.unconfirmed ?? 0;
  const total = options.recipients.length;
  const id = randomId();
  const campaignId = options.campaignId ?? randomId();
  const db = t.database.db;
  await db.insert(campaignSends).values({
    workspaceId: ws,
    id,
    campaignId,
    campaignVersion: 1,
    emailId: 'email-1',
    emailVersion: 1,
    audienceId: 'audience-1',
    senderId: 'sender-1',
    provider: 'smtp',
    state: 'done',
    content: {
      subject: 'News',
      preheader: '',
      html: '<p>News</p>',
      text: 'News',
      fromName: 'News',
      fromAddress: 'news@example.test',
      replyTo: null,
      postalAddress: '1 Market Street',
      tracking: options.tracking ?? true,
    },
    sendAt: new Date(),
    snapshotAt: new Date(),
    audienceSize: total,
    recipients: total,
    sent: total - unconfirmed,
    unconfirmed,
    createdBy: 'test',
    createdByName: 'Test',
  });
  await db.insert(campaignRecipients).values(
    options.recipients.map((recipient, index) => ({
      workspaceId: ws,
      sendId: id,
      n: index + 1,
      profileId: recipient.profileId,
      email: recipient.email,
      status: index < total - unconfirmed ? 'sent' : 'unconfirmed',
      attempts: 1,
      sentAt: index < total - unconfirmed ? new Date() : null,
    })),
  );
  const links = options.links ?? [];
  if (links.length) {
    await db
      .insert(campaignLinks)
      .values(links.map((url, index) => ({ workspaceId: ws, sendId: id, idx: index + 1, url })));
  }
  return {
    id,
    campaignId,
    token: (kind, n, link = 0) => signToken({ kind, workspaceId: ws, sendId: id, n, link }, t.config.secret),
  };
}
