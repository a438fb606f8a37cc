import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { CreateScheduleBody } from '@shared/api/schedules';
import { showToast } from '@web/lib/toast';
import { useCreateSchedule } from '../api/schedules';
import type { PublishChip } from '../item-labels';
import { itemScreenPath } from '@web/lib/item-paths';
import type { ItemScreenContext } from './item-sub-screen';
import { useSchedulePicker } from './schedule-picker';

type StageActionKind = NonNullable<CreateScheduleBody['action']>;

const SCHEDULED_WORDS: Record<StageActionKind, string> = {
  publish: 'publish to',
  unpublish: 'unpublish from',
};

/**
 * What the publish and unpublish screens share: the stage chosen among `chips` (the one in ?stage=
 * first), now or a scheduled time, and the way back to the item once done.
 */
export function useStageAction(
  { workspace, domain, schema, item }: ItemScreenContext,
  chips: readonly PublishChip[],
  { action, fallbackStage }: { action: StageActionKind; fallbackStage: string },
) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [stage, setStage] = useState(
    () => chips.find((c) => c.stage === params.get('stage'))?.stage ?? chips[0]?.stage ?? fallbackStage,
  );
  const picker = useSchedulePicker(workspace);
  const schedule = useCreateSchedule(workspace.id, schema.name, item.id);
  const back = itemScreenPath(workspace.id, domain.name, schema.name, item.id);
  const chosen = chips.find((c) => c.stage === stage);
  const stageLabel = chosen?.stageLabel ?? stage;

  /** Confirms what was done and returns to the item. */
  const finish = (color: string, message: string) => {
    showToast({ color, message });
    navigate(back);
  };

  const handleSchedule = () =>
    picker.at &&
    schedule.mutate(
      { stage, action, at: picker.at.toISOString() },
      {
        onSuccess: () =>
          finish(
            'violet',
            `Scheduled to ${SCHEDULED_WORDS[action]} ${stageLabel} ${picker.label} (${picker.zone})`,
          ),
      },
    );

  return { stage, setStage, chosen, stageLabel, picker, schedule, back, finish, handleSchedule };
}

export type StageAction = ReturnType<typeof useStageAction>;
