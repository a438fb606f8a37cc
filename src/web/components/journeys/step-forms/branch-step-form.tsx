import { Stack, Text } from '@mantine/core';
import { ConditionsEditor } from '../conditions-editor';
import type { StepFormProps } from './types';

/** Branch: profiles whose attributes meet every condition leave by "yes", the others by "no". */
export function BranchStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <Stack gap="xs">
      <Text size="xs" fw={500}>
        Profile attributes that must all hold for “yes”
      </Text>
      <ConditionsEditor
        subject="attribute"
        value={step.conditions}
        readOnly={readOnly}
        onChange={(conditions) => onChange({ ...step, conditions })}
      />
    </Stack>
  );
}
