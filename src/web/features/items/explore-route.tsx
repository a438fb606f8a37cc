import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { NotFoundPage } from '@web/components/not-found-page';
import {
  CONFLICTING_FILTERS_REMOVED,
  conflictingFilters,
  findSavedView,
  savedViews,
} from '@web/lib/saved-views';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { AddItemButton } from './components/add-item-button';
import { ItemList } from './components/item-list';

const DESCRIPTIONS: Record<string, string> = {
  all: 'Everything in this workspace, most recently updated first.',
  'last-updated-by-me': 'Items you changed last.',
  'need-my-approval': 'Items waiting for an approval from one of your roles.',
  scheduled: 'Items with a publish or unpublish planned for later.',
  'published-in': 'Items with a published copy in this stage.',
  'outdated-in': 'Items changed since they were published to this stage.',
  'aging-in': 'Items published to this stage more than 30 days ago.',
};

/** /{workspace}/_items/{viewId}/{viewParam?}: the items of a saved view, across the enabled domains. */
export default function ExploreRoute() {
  const { viewId, viewParam } = useParams();
  const workspace = useCurrentWorkspace();
  const view = findSavedView(savedViews(workspace.basics.stages, workspace.__permissions), viewId, viewParam);
  const [params, setParams] = useSearchParams();
  const conflicting = view ? conflictingFilters(view, params) : [];

  useEffect(() => {
    if (conflicting.length === 0) return;
    console.warn(CONFLICTING_FILTERS_REMOVED, Object.fromEntries(conflicting.map((k) => [k, params.get(k)])));
    const kept = new URLSearchParams(params);
    conflicting.forEach((key) => kept.delete(key));
    setParams(kept, { replace: true });
  }, [conflicting.join(','), params, setParams]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!view) return <NotFoundPage />;

  return (
    <ItemList
      key={`${view.viewId}/${view.viewParam ?? ''}`}
      workspace={workspace}
      query={{ view: view.viewId, ...(view.viewParam ? { stage: view.viewParam } : {}) }}
      eyebrow={view.stage ? `Stage · ${view.stage}` : 'Saved view'}
      title={view.label}
      description={DESCRIPTIONS[view.viewId]}
      addButton={<AddItemButton workspace={workspace} />}
      showSchema
    />
  );
}
