import { Group, NumberInput, Select } from '@mantine/core';

const UNITS = [
  { value: '60', label: 'minutes' },
  { value: '3600', label: 'hours' },
  { value: '86400', label: 'days' },
];

/** The largest unit a number of seconds is a whole number of. */
function unitOf(seconds: number) {
  return [...UNITS].reverse().find((unit) => seconds % Number(unit.value) === 0)?.value ?? '60';
}

/** A duration typed as a number of minutes, hours or days, stored as seconds. */
export function DurationInput({
  label,
  description,
  seconds,
  onChange,
  readOnly,
}: {
  label: string;
  description?: string;
  seconds: unknown;
  onChange: (seconds: number) => void;
  readOnly: boolean;
}) {
  const total = typeof seconds === 'number' && seconds >= 0 ? seconds : 0;
  const unit = unitOf(total);
  const amount = total / Number(unit);
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <NumberInput
        size="xs"
        label={label}
        description={description}
        min={0}
        allowDecimal={false}
        value={amount}
        readOnly={readOnly}
        onChange={(value) => onChange(Math.round((Number(value) || 0) * Number(unit)))}
        style={{ flex: 1 }}
      />
      <Select
        size="xs"
        w={100}
        aria-label={`${label}: unit`}
        data={UNITS}
        value={unit}
        allowDeselect={false}
        readOnly={readOnly}
        onChange={(next) => next && onChange(amount * Number(next))}
      />
    </Group>
  );
}

/** "2 days", "90 minutes": a duration in its largest whole unit. */
export function formatDuration(seconds: unknown) {
  const total = typeof seconds === 'number' && seconds >= 0 ? seconds : 0;
  const unit = UNITS.find((each) => each.value === unitOf(total))!;
  const amount = total / Number(unit.value);
  return `${amount} ${amount === 1 ? unit.label.slice(0, -1) : unit.label}`;
}
