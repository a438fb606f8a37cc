import { useMemo, useState } from 'react';
import { Stack, Tabs } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useWorkspaceModel } from '@web/lib/content-model';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { SaveErrorAlert } from '../components/conflict-alert';
import { reloadContentModel } from './api/get-content-model';
import { ChangeSetPanel } from './components/change-set-panel';
import { HistoryView } from './components/history-view';
import { ModelView } from './components/model-view';
import { ReviewDialog } from './components/plan-view';
import { RunningChanges } from './components/running-changes';
import { useChangeSet } from './use-change-set';
import { useChangeSetActions } from './use-change-set-actions';

/**
 * /{workspace}/_settings/content-model: the workspace's domains, schemas, fields and block types, changed
 * through a pending change set that is reviewed (planned) and applied; and the history of applied changes.
 */
export default function ContentModelRoute() {
  const workspace = useCurrentWorkspace();
  const ws = workspace.id;
  const client = useQueryClient();
  const current = useWorkspaceModel(workspace);
  const answer = useMemo(() => ({ version: current.version, model: current.doc }), [current]);
  const changeSet = useChangeSet(ws, answer);
  const actions = useChangeSetActions(ws, changeSet, () => reloadContentModel(client, ws));
  const [tab, setTab] = useState<string | null>('model');
  const { model, applied, ops } = changeSet;
  const alert = <SaveErrorAlert error={actions.error} workspaceId={ws} onReload={actions.handleReload} />;

  return (
    <Tabs value={tab} onChange={setTab} keepMounted={false}>
      <RunningChanges ws={ws} />
      <Tabs.List mb="lg">
        <Tabs.Tab value="model">Model</Tabs.Tab>
        <Tabs.Tab value="history">History</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="model">
        <Stack gap="lg">
          <ModelView
            workspace={workspace}
            model={model}
            applied={applied}
            ops={ops}
            onChange={(added) => {
              actions.resetRequests();
              return changeSet.add(added);
            }}
          />
          {ops.length > 0 && (
            <ChangeSetPanel
              ops={ops}
              onDrop={actions.handleDrop}
              onDiscard={() => {
                actions.resetRequests();
                changeSet.discard();
              }}
              onReview={actions.handleReview}
              onApply={() => actions.handleApply(applied)}
              isPlanning={actions.isPlanning}
              isApplying={actions.isApplying}
              isReviewing={actions.review !== null}
              alert={actions.review ? null : alert}
            />
          )}
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="history">
        <HistoryView ws={ws} version={current.version} model={applied} onReload={actions.handleReload} />
      </Tabs.Panel>
      {actions.review && (
        <ReviewDialog
          ws={ws}
          plan={actions.review}
          model={applied}
          alert={alert}
          isApplying={actions.isApplying}
          onApply={() => actions.applyPlanned(actions.review!, applied)}
          onClose={actions.closeReview}
        />
      )}
    </Tabs>
  );
}
