import crypto from 'node:crypto';

/**
 * The opaque key streams and locks name a member's tab by, in place of its id: the same in every
 * process (they share MARQUEE_SECRET), of no use for acting as that tab, and another member's tab id
 * gives another key (presence and locks are kept by member and tab).
 */
export const tabKey = (secret: string, userId: string, tab: string) =>
  crypto
    .createHmac('sha256', `live-tab:${secret}`)
    .update(`${userId}\n${tab}`)
    .digest('base64url')
    .slice(0, 22);
