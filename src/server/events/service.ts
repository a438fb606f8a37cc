import type { EventBody } from '@shared/api/events';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/repository';
import { findMember } from '../workspaces/members-repository';
import { insertEvent } from './repository';

const ANONYMOUS_USER_ID = '__anonymous';

/**
 * Stores an analytics event (spec §3: xmUser, xmSession, xmWs, url, eventType). The user and session come
 * from the caller's credentials, never from the body; a workspace is recorded only for its active members.
 */
export async function recordEvent(
  ctx: AppContext,
  user: UserRow | null,
  sessionHash: string | null,
  body: EventBody,
) {
  let workspaceId = '';
  if (body.xmWs && user) {
    const member = await findMember(ctx.db, body.xmWs, user.id);
    if (member?.active) workspaceId = body.xmWs;
  }
  await insertEvent(ctx.db, {
    workspaceId,
    eventType: body.eventType,
    userId: user?.id ?? ANONYMOUS_USER_ID,
    session: sessionHash ? sessionHash.slice(0, 16) : null,
    url: body.url,
    data: body.data ?? null,
  });
}
