import { STAGE_VIEW_IDS, type StageViewId } from '@shared/publishing/saved-views';
import { stageValue } from '@shared/publishing/stages';
import type { Permissions } from '@shared/permissions/permissions';

export interface SavedView {
  viewId: string;
  viewParam?: string;
  label: string;
  /** Stage label for per-stage views, used to group them. */
  stage?: string;
}

const STAGE_VIEW_LABEL: Record<StageViewId, (stage: string) => string> = {
  'published-in': (stage) => `Published in ${stage}`,
  'outdated-in': (stage) => `Outdated in ${stage}`,
  'aging-in': (stage) => `Aging in ${stage}`,
};

/**
 * The saved views a user sees in a workspace's sidebar (which items match a view is decided in
 * @shared/publishing/saved-views). 'Need my approval' appears only if the user has roles
 * (spec §6); 'Scheduled' holds items with a planned publish or unpublish, and campaigns with a queued send.
 */
export function savedViews(stages: readonly string[], permissions: Pick<Permissions, 'roles'>): SavedView[] {
  const views: SavedView[] = [
    { viewId: 'all', label: 'All items' },
    { viewId: 'last-updated-by-me', label: 'Last updated by me' },
  ];
  if (permissions.roles.length > 0) views.push({ viewId: 'need-my-approval', label: 'Need my approval' });
  views.push({ viewId: 'scheduled', label: 'Scheduled' });
  for (const stage of stages) {
    for (const viewId of STAGE_VIEW_IDS) {
      views.push({ viewId, viewParam: stageValue(stage), label: STAGE_VIEW_LABEL[viewId](stage), stage });
    }
  }
  return views;
}

/** The saved view a URL names, or undefined when there is no such view for this user and workspace. */
export function findSavedView(
  views: readonly SavedView[],
  viewId: string | undefined,
  viewParam: string | undefined,
): SavedView | undefined {
  return views.find(
    (view) => view.viewId === viewId && (view.viewParam ?? undefined) === (viewParam || undefined),
  );
}

export const CONFLICTING_FILTERS_REMOVED = 'CONFLICTING FILTERS REMOVED';

/**
 * Query parameters of the URL that contradict the saved view the path names (spec §8): `view` or
 * `stage` other than the view's own. They are dropped, and 'CONFLICTING FILTERS REMOVED' is logged.
 */
export function conflictingFilters(view: SavedView, params: URLSearchParams): string[] {
  const own: Record<string, string | undefined> = { view: view.viewId, stage: view.viewParam };
  return Object.keys(own).filter((key) => params.has(key) && params.get(key) !== own[key]);
}
