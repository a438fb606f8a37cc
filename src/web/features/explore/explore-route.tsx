import { useParams } from 'react-router';
import { NotFoundPage } from '@web/components/not-found-page';
import { PageHeader } from '@web/components/page-header';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { ItemsEmptyState } from './components/items-empty-state';
import { ViewModeToggle, useViewMode } from './components/view-mode-toggle';
import { findSavedView, savedViews } from './saved-views';

const DESCRIPTIONS: Record<string, string> = {
  all: 'Everything in this workspace, most recently updated first.',
  'last-updated-by-me': 'Items you changed last.',
  'need-my-approval': 'Items waiting for an approval from one of your roles.',
  'published-in': 'Items with a published copy in this stage.',
  'outdated-in': 'Items changed since they were published to this stage.',
  'aging-in': 'Items published to this stage more than 30 days ago.',
};

/** /{workspace}/_items/{viewId}/{viewParam?}: the explore view (items arrive in a later release of this screen). */
export default function ExploreRoute() {
  const { viewId, viewParam } = useParams();
  const workspace = useCurrentWorkspace();
  const [mode, setMode] = useViewMode();
  const view = findSavedView(savedViews(workspace.basics.stages, workspace.__permissions), viewId, viewParam);
  if (!view) return <NotFoundPage />;

  return (
    <>
      <PageHeader
        eyebrow={view.stage ? `Stage · ${view.stage}` : 'Saved view'}
        title={view.label}
        description={DESCRIPTIONS[view.viewId]}
        actions={<ViewModeToggle value={mode} onChange={setMode} />}
      />
      <ItemsEmptyState />
    </>
  );
}
