import { useState } from 'react';
import type { ChangeSetBody, ContentModelAnswer, PlanAnswer } from '@shared/api/content-model';
import type { ContentModelDoc } from '@shared/model/types';
import { showToast } from '@web/lib/toast';
import { useApplyModelChange } from './api/apply-model-change';
import { usePlanModelChange } from './api/plan-model-change';
import { changesWord } from './components/change-set-panel';
import { confirmRemovals } from './components/plan-view';
import type { useChangeSet } from './use-change-set';

/**
 * Review, apply and reload for the pending change set: a review plans it; applying asks first when it
 * removes schemas (naming their items); a stale model (409) is read again and the operations made again on it.
 */
export function useChangeSetActions(
  ws: string,
  changeSet: ReturnType<typeof useChangeSet>,
  reload: () => Promise<ContentModelAnswer>,
) {
  const plan = usePlanModelChange(ws);
  const apply = useApplyModelChange(ws);
  const [review, setReview] = useState<PlanAnswer | null>(null);
  const body: ChangeSetBody = { baseVersion: changeSet.baseVersion, ops: [...changeSet.ops] };

  const resetRequests = () => {
    plan.reset();
    apply.reset();
  };

  const runApply = () =>
    apply.mutate(body, {
      onSuccess: ({ version, change }) => {
        changeSet.discard();
        setReview(null);
        const converting =
          change?.state === 'running' ? ' Its items are being converted in the background.' : '';
        showToast({
          color: 'teal',
          title: 'Content model updated',
          message: `${changesWord(body.ops.length)} applied; the model is at version ${version}.${converting}`,
        });
      },
    });

  const applyPlanned = (answer: PlanAnswer, applied: ContentModelDoc) =>
    confirmRemovals(answer, applied, runApply);

  return {
    review,
    error: apply.error ?? plan.error,
    isPlanning: plan.isPending,
    isApplying: apply.isPending,
    resetRequests,
    closeReview: () => setReview(null),
    applyPlanned,
    handleReview: () => {
      resetRequests();
      plan.mutate(body, { onSuccess: setReview });
    },
    handleApply: (applied: ContentModelDoc) => {
      resetRequests();
      if (!body.ops.some((op) => op.op === 'removeSchema')) return runApply();
      plan.mutate(body, { onSuccess: (answer) => applyPlanned(answer, applied) });
    },
    handleReload: async () => {
      const data = await reload();
      resetRequests();
      setReview(null);
      const dropped = changeSet.rebase(data);
      showToast({
        color: dropped > 0 ? 'orange' : 'teal',
        title: `Content model reloaded at version ${data.version}`,
        message:
          dropped > 0
            ? `${changesWord(dropped)} no longer applied to it and ${dropped === 1 ? 'was' : 'were'} dropped.`
            : 'Your pending changes are kept; review them again before applying.',
      });
    },
    handleDrop: (index: number) => {
      resetRequests();
      const outcome = changeSet.drop(index);
      if ('error' in outcome)
        showToast({
          color: 'red',
          title: 'That change cannot be dropped on its own',
          message: outcome.error,
        });
      else if (outcome.dropped > 0)
        showToast({
          color: 'orange',
          title: 'Changes dropped',
          message: `${changesWord(outcome.dropped)} that depended on it ${outcome.dropped === 1 ? 'was' : 'were'} dropped too.`,
        });
    },
  };
}
