import { RELEASE_MESSAGES } from '@shared/api/releases';
import { findUserById } from '../auth/repository';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { loadWorkspaceAccess } from '../workspaces/access';
import { forgetCachedMembership } from '../workspaces/repository';
import { publishRelease } from './publish-release';
import { refuseScheduledPublish, type ClaimedRelease } from './schedule-repository';

/** The longest reason kept for a refused scheduled publish. */
const MAX_REASON = 2000;

interface Blocked {
  schema: string;
  itemId: string;
  blockers: string[];
}

/** A refusal as one line: the message, and for a blocked release what blocks each entry. */
function reasonOf(err: AppError) {
  const blocked = (err.details as { blocked?: Blocked[] } | undefined)?.blocked;
  const text = blocked?.length
    ? `${err.message}: ${blocked.map((b) => `${b.schema}/${b.itemId}: ${b.blockers.join('; ')}`).join(' | ')}`
    : err.message;
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}

/**
 * Publishes a claimed release as the member who scheduled it, with the rights they hold now. A refusal
 * (no longer a member, publish right withdrawn, an entry not approved or gone) publishes nothing and is
 * recorded on the release with its reason.
 */
export async function runScheduledRelease(ctx: AppContext, release: ClaimedRelease) {
  const user = await findUserById(ctx.db, release.scheduledBy);
  // Rights as they are now, not as this process may have cached them.
  forgetCachedMembership(ctx.db, release.workspaceId, release.scheduledBy);
  try {
    const access = await loadWorkspaceAccess(ctx, user ?? null, release.workspaceId);
    await publishRelease(ctx, access, release.id, { publishRefs: false, scheduled: true });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const gone = err.statusCode === 401 || err.statusCode === 404;
    const who = user?.name ?? 'The member who scheduled it';
    const reason =
      gone && err.message !== RELEASE_MESSAGES.notFound ? RELEASE_MESSAGES.schedulerGone(who) : reasonOf(err);
    await refuseScheduledPublish(ctx.db, release, reason);
  }
}
