import { eq } from 'drizzle-orm';
import { EMAIL_EVENTS } from '@shared/api/campaigns';
import type { ContentModel } from '@shared/model/registry';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { workspaces } from '../db/schema';
import { insertEvents, listDefinitions } from '../customers/repository';
import { AppError } from '../http/errors';
import { createItemWithId } from '../items/service';
import { MARQUEE_ACTOR } from '../journal/marquee-actor';
import { schemaIn } from '../items/scope';
import { modelOf } from '../workspaces/content-model';
import type { WorkspaceAccess } from '../workspaces/access';
import type { EngagementKind } from './engagement';

type EmailEventKey = (typeof EMAIL_EVENTS)[keyof typeof EMAIL_EVENTS];

const LABELS: Record<EmailEventKey, string> = {
  'email-delivered': 'Email delivered',
  'email-opened': 'Email opened',
  'email-clicked': 'Email clicked',
  'email-bounced': 'Email bounced',
  'email-unsubscribed': 'Email unsubscribed',
};

const PROPERTIES = [
  { name: 'campaign', type: 'string' },
  { name: 'send', type: 'string' },
  { name: 'url', type: 'string' },
];

/**
 * Marquee acting in a workspace with no member behind it: it may edit behavioral events only. Items
 * written this way name MARQUEE_ACTOR as their writer.
 */
function marqueeAccess(workspace: typeof workspaces.$inferSelect, model: ContentModel): WorkspaceAccess {
  return {
    model,
    user: { id: MARQUEE_ACTOR.id, address: null },
    member: { displayName: MARQUEE_ACTOR.name },
    workspace,
    permissions: {
      canEdit: ['behavioral-event'],
      canPublish: [],
      canApprove: [],
      canManageWorkspace: false,
      roles: [],
    },
  } as unknown as WorkspaceAccess;
}

/** The behavioral-event items Marquee declares for events it records itself, by the feature recording them. */
interface MarqueeEvent {
  key: string;
  name: string;
  properties: { name: string; type: string }[];
  description: string;
}

const EMAIL_EVENT_ITEMS: MarqueeEvent[] = Object.values(EMAIL_EVENTS).map((key) => ({
  key,
  name: LABELS[key],
  properties: PROPERTIES.filter((p) => p.name !== 'url' || key === EMAIL_EVENTS.clicked),
  description: 'Recorded by campaign sends; properties: the campaign item id and the send id.',
}));

const JOURNEY_PROPERTIES = [
  { name: 'journey', type: 'string' },
  { name: 'version', type: 'number' },
  { name: 'step', type: 'string' },
];
const JOURNEY_EVENT_ITEMS: MarqueeEvent[] = [
  { key: 'journey-entered', name: 'Journey entered', properties: JOURNEY_PROPERTIES.slice(0, 2) },
  {
    key: 'journey-step',
    name: 'Journey step',
    properties: [...JOURNEY_PROPERTIES, { name: 'type', type: 'string' }, { name: 'exit', type: 'string' }],
  },
  {
    key: 'journey-exited',
    name: 'Journey exited',
    properties: [...JOURNEY_PROPERTIES, { name: 'reason', type: 'string' }],
  },
].map((event) => ({
  ...event,
  description: 'Recorded by journeys; properties: the journey item id, its version and the step.',
}));

const EVENT_SETS = { email: EMAIL_EVENT_ITEMS, journey: JOURNEY_EVENT_ITEMS };

/** Workspaces whose events of each set exist (or are being made), per database. */
const ensured = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * Creates the behavioral-event items of the email-* customer events a workspace lacks (by key), so
 * audiences can name them; each through the items service under its key as id, so two callers at once
 * (in any process) create it once. Remembered per process after the first success; a workspace
 * without the marketing domain gets none (its events are still stored). `set` 'journey': the
 * journey-* events instead.
 */
export function ensureRecordedEvents(
  ctx: AppContext,
  workspaceId: string,
  set: keyof typeof EVENT_SETS = 'email',
): Promise<void> {
  let byWorkspace = ensured.get(ctx.db);
  if (!byWorkspace) ensured.set(ctx.db, (byWorkspace = new Map()));
  const cacheKey = `${set}\n${workspaceId}`;
  const known = byWorkspace.get(cacheKey);
  if (known) return known;
  const work = createEvents(ctx, workspaceId, EVENT_SETS[set]).then(
    (done) => {
      if (!done) byWorkspace.delete(cacheKey);
    },
    (err: unknown) => {
      byWorkspace.delete(cacheKey);
      throw err;
    },
  );
  byWorkspace.set(cacheKey, work);
  return work;
}

/** Answers false when the workspace cannot have them (gone, or without the marketing domain). */
async function createEvents(ctx: AppContext, workspaceId: string, events: MarqueeEvent[]) {
  const [workspace] = await ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) return false;
  let scope;
  try {
    scope = schemaIn(marqueeAccess(workspace, await modelOf(ctx.db, workspace)), 'behavioral-event');
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
  const existing = new Set(
    (await listDefinitions(ctx.db, workspaceId))
      .filter((row) => row.schema === 'behavioral-event')
      .map((row) => row.data.key),
  );
  for (const { key, ...data } of events) {
    if (existing.has(key)) continue;
    await createItemWithId(ctx, scope, key, { ...data, key });
  }
  return true;
}

/** The customer event of an engagement, as a profile's timeline and audiences read it. */
export interface EmailEvent {
  workspaceId: string;
  profileId: string;
  key: EmailEventKey;
  campaignId: string;
  sendId: string;
  n: number;
  kind: EngagementKind | 'delivered';
  link?: number;
  url?: string;
  at: Date;
}

/**
 * Writes an email-* event on a profile, once per recipient, kind and link however often it is
 * recorded (its id is `{send}:{n}:{kind}:{link}`). Call ensureRecordedEvents first, outside the transaction.
 */
export async function recordEmailEvent(db: Db | Tx, event: EmailEvent) {
  const properties: Record<string, unknown> = { campaign: event.campaignId, send: event.sendId };
  if (event.url !== undefined) properties.url = event.url;
  await insertEvents(db, event.workspaceId, [
    [
      event.profileId,
      event.key,
      event.at.toISOString(),
      properties,
      `${event.sendId}:${event.n}:${event.kind}:${event.link ?? 0}`,
    ],
  ]);
}
