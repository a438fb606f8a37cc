import { Group, Pill, TagsInput, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { LIVE_STAGE_LABEL, normaliseStages, stageValue } from '@shared/publishing/stages';

interface StagesInputProps {
  value: string[];
  onChange: (value: string[]) => void;
  label?: string;
}

/** Stage labels; Live is always present and cannot be removed (spec §9). */
export function StagesInput({ value, onChange, label = 'Stages' }: StagesInputProps) {
  const stages = normaliseStages(value);
  return (
    <TagsInput
      label={label}
      description="Where items can be published. Press Enter after each stage. Live is always present."
      placeholder="Add a stage, e.g. Staging"
      value={stages}
      onChange={(next) => onChange(normaliseStages(next))}
      isDuplicate={(candidate, current) => current.some((s) => stageValue(s) === stageValue(candidate))}
      renderPill={({ value: stage, onRemove }) =>
        stage === LIVE_STAGE_LABEL ? (
          <Pill key={stage} withRemoveButton={false}>
            <Group gap={4} wrap="nowrap">
              <IconLock size={11} />
              <Text span size="xs" inherit>
                {stage}
              </Text>
            </Group>
          </Pill>
        ) : (
          <Pill key={stage} withRemoveButton onRemove={onRemove}>
            {stage}
          </Pill>
        )
      }
    />
  );
}
