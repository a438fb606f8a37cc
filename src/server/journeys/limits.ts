import crypto from 'node:crypto';
import {
  JOURNEY_LIMIT_DEFAULTS,
  JOURNEY_MESSAGES,
  type JourneyLimits,
  type JourneyLimitsAnswer,
} from '@shared/api/journeys';
import { quietUntil } from '@shared/journeys/time';
import { isKnownTimezone } from '@shared/time/zones';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { badRequest } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { openSecret, sealSecret } from '../lib/secret-box';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

/** The purpose journey webhook secrets are sealed under (see lib/secret-box). */
const JOURNEY_WEBHOOK_SECRET_PURPOSE = 'journey-webhook-secret';

const DAY_MS = 86_400_000;

/** The workspace's journey limits (the defaults when it has set none). */
export async function journeyLimitsOf(db: Db | Tx, workspaceId: string): Promise<JourneyLimits> {
  const row = await repo.findLimits(db, workspaceId);
  if (!row) return JOURNEY_LIMIT_DEFAULTS;
  return {
    perDay: row.perDay,
    perWeek: row.perWeek,
    quietHours:
      row.quietStart === null || row.quietEnd === null ? null : { start: row.quietStart, end: row.quietEnd },
    timeZone: row.timeZone,
  };
}

/** The secret the workspace's webhook steps sign with, made the first time it is asked for. */
export async function journeyWebhookSecret(ctx: AppContext, workspaceId: string) {
  const fresh = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  const sealed = await repo.ensureWebhookSecret(
    ctx.db,
    workspaceId,
    sealSecret(ctx.config.secret, JOURNEY_WEBHOOK_SECRET_PURPOSE, fresh),
  );
  return openSecret(ctx.config.secret, JOURNEY_WEBHOOK_SECRET_PURPOSE, sealed);
}

/** `GET …/journey-limits`: any member reads the limits; managers also get the webhook secret. */
export async function getJourneyLimits(
  ctx: AppContext,
  access: WorkspaceAccess,
): Promise<JourneyLimitsAnswer> {
  const workspaceId = access.workspace.id;
  const limits = await journeyLimitsOf(ctx.db, workspaceId);
  if (!access.permissions.canManageWorkspace) return { limits };
  return { limits, webhookSecret: await journeyWebhookSecret(ctx, workspaceId) };
}

/** `PUT …/journey-limits`: managers only; the time zone must be one the server knows. */
export async function putJourneyLimits(ctx: AppContext, access: WorkspaceAccess, body: JourneyLimits) {
  requireManager(access);
  if (!isKnownTimezone(body.timeZone)) throw badRequest(JOURNEY_MESSAGES.unknownTimeZone(body.timeZone));
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    await repo.upsertLimits(tx, {
      workspaceId,
      perDay: body.perDay,
      perWeek: body.perWeek,
      quietStart: body.quietHours?.start ?? null,
      quietEnd: body.quietHours?.end ?? null,
      timeZone: body.timeZone,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'journey.limits',
          targetType: 'workspace',
          targetId: workspaceId,
          detail: { ...body },
        },
      ],
    });
  });
  return getJourneyLimits(ctx, access);
}

/** The most journey emails a cap's rolling window lets a profile get, and the window. */
function capsOf(limits: JourneyLimits) {
  return (
    [
      [limits.perDay, DAY_MS],
      [limits.perWeek, 7 * DAY_MS],
    ] as const
  ).filter((cap): cap is [number, number] => cap[0] !== null);
}

/** How many of a profile's last journey emails the caps look at (0: no caps). */
export const capDepth = (limits: JourneyLimits) => Math.max(0, ...capsOf(limits).map(([most]) => most));

/**
 * Why and until when a journey email to a profile is held back now, or null when it may go: `sent` is
 * when the profile's last journey emails went, newest first (at least `capDepth` of them when it has
 * them), `zone` its time zone.
 */
export function emailHold(
  sent: Date[],
  limits: JourneyLimits,
  zone: string,
  now: Date,
): { until: Date; reason: 'cap' | 'quiet-hours' } | null {
  let held: { until: Date; reason: 'cap' | 'quiet-hours' } | null = null;
  for (const [most, windowMs] of capsOf(limits)) {
    const within = sent.filter((at) => at.getTime() > now.getTime() - windowMs);
    // Rolling windows: the profile may be mailed again once the oldest of the last `most` leaves it.
    if (within.length >= most) {
      const until = new Date(within[most - 1].getTime() + windowMs);
      if (!held || until > held.until) held = { until, reason: 'cap' };
    }
  }
  const quiet = quietUntil(held?.until ?? now, zone, limits.quietHours);
  if (quiet && (!held || quiet > held.until))
    held = { until: quiet, reason: held ? held.reason : 'quiet-hours' };
  return held;
}
