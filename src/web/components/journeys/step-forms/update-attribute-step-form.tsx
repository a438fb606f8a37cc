import { Stack, TextInput } from '@mantine/core';
import { typedValue } from '../conditions-editor';
import type { StepFormProps } from './types';

/** Update an attribute: the profile attribute and the value it gets (empty clears it). */
export function UpdateAttributeStepForm({ step, onChange, readOnly }: StepFormProps) {
  const value = step.value === null || step.value === undefined ? '' : String(step.value);
  return (
    <Stack gap="xs">
      <TextInput
        size="xs"
        label="Attribute"
        value={typeof step.attribute === 'string' ? step.attribute : ''}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...step, attribute: event.currentTarget.value })}
      />
      <TextInput
        size="xs"
        label="New value"
        description="Empty clears the attribute"
        value={value}
        readOnly={readOnly}
        onChange={(event) => {
          const text = event.currentTarget.value;
          onChange({ ...step, value: text === '' ? null : typedValue(text) });
        }}
      />
    </Stack>
  );
}
