import { remainingApprovals } from './approvals';
import type { Roles } from '../permissions/permissions';
import { ownValue } from '../text/reserved-names';

/** Spec §9 saved views: all, last-updated-by-me, need-my-approval, scheduled, and per stage published-in, outdated-in, aging-in. */
const PLAIN_VIEW_IDS = ['all', 'last-updated-by-me', 'need-my-approval', 'scheduled'] as const;
export const STAGE_VIEW_IDS = ['published-in', 'outdated-in', 'aging-in'] as const;
type PlainViewId = (typeof PLAIN_VIEW_IDS)[number];
export type StageViewId = (typeof STAGE_VIEW_IDS)[number];

/** DESIGN §4: aging-in-{stage} holds items published there more than this many days ago. */
export const AGING_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

export type SavedViewQuery = { viewId: PlainViewId } | { viewId: StageViewId; stage: string };

/**
 * Reads a view from its id and optional parameter: `published-in` + `live`, or the joined form
 * `published-in-live`. Undefined for anything that names no view; stage views without a stage included.
 */
export function parseSavedView(viewId: string, viewParam?: string): SavedViewQuery | undefined {
  if ((PLAIN_VIEW_IDS as readonly string[]).includes(viewId)) {
    return viewParam ? undefined : { viewId: viewId as PlainViewId };
  }
  for (const id of STAGE_VIEW_IDS) {
    if (viewId === id && viewParam) return { viewId: id, stage: viewParam };
    if (viewId.startsWith(`${id}-`) && !viewParam) return { viewId: id, stage: viewId.slice(id.length + 1) };
  }
  return undefined;
}

/** The date before which a stage copy is aging. */
export const agingCutoff = (now: Date) => new Date(now.getTime() - AGING_DAYS * DAY_MS);

/** What a view needs to know about an item. */
export interface ViewCandidate {
  schema: string;
  version: number;
  lastWrittenBy: string;
  approvedRoles: readonly string[];
  /** Stage value → the copy's version and publish time. */
  copies: Readonly<Record<string, { version: number; publishedAt: Date }>>;
  /** A publish or unpublish is planned and has not run yet, or a campaign's send is queued. */
  isScheduled?: boolean;
}

export interface ViewContext {
  userId: string;
  memberRoleIds: readonly string[];
  roles: Roles;
  now: Date;
}

/** Whether an item belongs to a saved view: the rule the server's queries implement, stated once. */
export function matchesSavedView(view: SavedViewQuery, item: ViewCandidate, context: ViewContext): boolean {
  switch (view.viewId) {
    case 'all':
      return true;
    case 'last-updated-by-me':
      return item.lastWrittenBy === context.userId;
    case 'need-my-approval':
      return remainingApprovals(context.roles, item.schema, item.approvedRoles).some((roleId) =>
        context.memberRoleIds.includes(roleId),
      );
    case 'scheduled':
      return item.isScheduled === true;
    case 'published-in':
      return Object.hasOwn(item.copies, view.stage);
    case 'outdated-in': {
      const copy = ownValue(item.copies, view.stage);
      return copy !== undefined && copy.version < item.version;
    }
    case 'aging-in': {
      const copy = ownValue(item.copies, view.stage);
      return copy !== undefined && copy.publishedAt.getTime() < agingCutoff(context.now).getTime();
    }
  }
}
