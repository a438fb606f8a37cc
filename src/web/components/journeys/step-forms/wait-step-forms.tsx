import { Stack, Text, TextInput } from '@mantine/core';
import { ConditionsEditor } from '../conditions-editor';
import { DurationInput } from '../duration-input';
import type { StepFormProps } from './types';

/** Wait: a duration. */
export function WaitStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <DurationInput
      label="Wait for"
      seconds={step.seconds}
      readOnly={readOnly}
      onChange={(seconds) => onChange({ ...step, seconds })}
    />
  );
}

/** The event looked for and the conditions on its properties: shared by the steps that look for one. */
export function EventFields({ step, onChange, readOnly }: Omit<StepFormProps, 'workspaceId'>) {
  return (
    <>
      <TextInput
        size="xs"
        label="Event"
        description="The behavioral event's key, such as purchase"
        value={typeof step.event === 'string' ? step.event : ''}
        readOnly={readOnly}
        onChange={(event) =>
          // An event branch without one says "choose the event"; a wait for an event always has one.
          onChange({
            ...step,
            event: event.currentTarget.value || (step.type === 'event-branch' ? undefined : ''),
          })
        }
      />
      <Text size="xs" fw={500}>
        Event conditions
      </Text>
      <ConditionsEditor
        subject="property"
        value={step.conditions}
        readOnly={readOnly}
        onChange={(conditions) => onChange({ ...step, conditions })}
      />
    </>
  );
}

/** Wait for an event: the event and its conditions, or the timeout; one exit each. */
export function WaitForEventStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <Stack gap="xs">
      <EventFields step={step} onChange={onChange} readOnly={readOnly} />
      <DurationInput
        label="Timeout"
        seconds={step.timeoutSeconds}
        readOnly={readOnly}
        onChange={(timeoutSeconds) => onChange({ ...step, timeoutSeconds })}
      />
    </Stack>
  );
}
