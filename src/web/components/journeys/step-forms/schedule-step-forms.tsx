import { Checkbox, Chip, Group, NumberInput, Stack, Text } from '@mantine/core';
import { DateAttributeSelect, TimeOfDayInput } from '../pickers';
import type { StepFormProps } from './types';

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const numbers = (value: unknown) =>
  Array.isArray(value) ? value.filter((each): each is number => typeof each === 'number') : [];

/** Wait until: the next time of day, on one of the chosen weekdays (none: any day). */
export function WaitUntilStepForm({ step, onChange, readOnly }: StepFormProps) {
  const weekdays = numbers(step.weekdays);
  return (
    <Stack gap="xs">
      <TimeOfDayInput
        label="Until"
        value={step.at}
        readOnly={readOnly}
        onChange={(at) => onChange({ ...step, at })}
      />
      <Text size="xs" fw={500}>
        On
      </Text>
      <Chip.Group
        multiple
        value={weekdays.map(String)}
        onChange={(days) =>
          !readOnly && onChange({ ...step, weekdays: days.map(Number).sort((a, b) => a - b) })
        }
      >
        <Group gap={4} aria-label="Weekdays">
          {WEEKDAYS.map((day, index) => (
            <Chip key={day} size="xs" value={String(index)} disabled={readOnly}>
              {day}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Text size="xs" c="dimmed">
        No day chosen: any day. In the profile&apos;s time zone.
      </Text>
    </Stack>
  );
}

/** The date attribute, the days before or after it, the time of day: shared by the date entry and wait. */
export function DateFields({
  value,
  onChange,
  readOnly,
  workspaceId,
  yearlyDefault,
}: {
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  readOnly: boolean;
  workspaceId: string;
  yearlyDefault: boolean;
}) {
  return (
    <Stack gap="xs">
      <DateAttributeSelect
        label="Date attribute"
        workspaceId={workspaceId}
        value={value.attribute}
        readOnly={readOnly}
        onChange={(attribute) => onChange({ ...value, attribute })}
      />
      <NumberInput
        size="xs"
        label="Days after the date"
        description="Negative: before it"
        min={-366}
        max={366}
        allowDecimal={false}
        value={typeof value.offsetDays === 'number' ? value.offsetDays : 0}
        readOnly={readOnly}
        onChange={(days) => onChange({ ...value, offsetDays: Number(days) || 0 })}
      />
      <TimeOfDayInput
        label="At"
        value={value.at}
        readOnly={readOnly}
        onChange={(at) => onChange({ ...value, at })}
      />
      <Checkbox
        size="xs"
        label="Every year (a birthday), not once (a renewal)"
        checked={typeof value.yearly === 'boolean' ? value.yearly : yearlyDefault}
        disabled={readOnly}
        onChange={(event) => onChange({ ...value, yearly: event.currentTarget.checked })}
      />
    </Stack>
  );
}

/** Wait until a date: the profile's date attribute, moved by some days, at a time of day. */
export function WaitUntilDateStepForm({ step, onChange, readOnly, workspaceId }: StepFormProps) {
  return (
    <DateFields
      value={step}
      onChange={(next) => onChange({ ...step, ...next })}
      readOnly={readOnly}
      workspaceId={workspaceId}
      yearlyDefault={false}
    />
  );
}
