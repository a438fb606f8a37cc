import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { DateTimeField as DateTimeFieldDef } from '@shared/schemas/types';
import { timezoneKey } from '@shared/schemas/types';
import {
  datePickerBoundsHint,
  defaultTimezone,
  formatInZone,
  formatPickerValue,
  parsePickerValue,
  PICKER_MASK,
} from '@shared/time/format';
import { isKnownTimezone } from '@shared/time/zones';
import { DateTimePickerPopover, useTypedInstant, wallClockOf } from './date-time-picker';
import { useFieldEnvironment } from './field-environment';
import type { FieldProps } from './types';
import { fieldHelp, ViewValue } from './view-value';

const MASK_HINT = `Type ${PICKER_MASK} (24-hour)`;

/** The zone a date-time value is shown in: its `{key}_tz` companion, else the default zone. */
function zoneOf(scope: Readonly<Record<string, unknown>>, key: string): string {
  const zone = scope[timezoneKey(key)];
  return typeof zone === 'string' && isKnownTimezone(zone) ? zone : defaultTimezone();
}

const isInstant = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** 'Tue Mar 4th, 2025 9:30 AM' in the value's zone (spec §9), with the zone's name. */
function DateTimeDisplay({ value, zone }: { value: unknown; zone: string }) {
  if (!isInstant(value)) return <ViewValue />;
  return (
    <Text size="sm">
      {formatInZone(value, zone)}{' '}
      <Text span size="xs" c="dimmed">
        {zone.replace(/_/g, ' ')}
      </Text>
    </Text>
  );
}

/** The field's own help, then the value as the display format reads it and the bounds, if any. */
function DateTimeHelp({ field, value, zone }: { field: DateTimeFieldDef; value: unknown; zone: string }) {
  const shown = isInstant(value) ? formatInZone(value, zone) : undefined;
  const bounds = datePickerBoundsHint(field.min, field.max, zone);
  const help = fieldHelp(field.description, [shown, bounds].filter(Boolean).join(' · '));
  return help ? (
    <Text size="xs" c="dimmed">
      {help}
    </Text>
  ) : null;
}

/**
 * Date and time per time zone (spec §3, §5): an ISO instant plus the `{key}_tz` zone. Typed in the mask
 * YYYY/MM/DD HH:mm (24-hour) or picked from a calendar; the text is wall-clock time in the chosen zone,
 * so choosing another zone keeps the typed time and moves the instant.
 */
export function DateTimeField({
  field,
  value,
  scope,
  onChange,
  onPatch,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<DateTimeFieldDef>) {
  const { timezones } = useFieldEnvironment();
  const zone = zoneOf(scope, field.key);
  const commit = (instant: string | null) =>
    instant ? onPatch({ [field.key]: instant, [timezoneKey(field.key)]: zone }) : onChange(null);
  const typing = useTypedInstant(isInstant(value) ? formatPickerValue(value, zone) : '', zone, commit);

  if (readOnly) return <DateTimeDisplay value={value} zone={zone} />;

  const zoneOptions = [...new Set([...timezones, zone])].map((name) => ({
    value: name,
    label: name.replace(/_/g, ' '),
  }));

  const handleZone = (nextZone: string | null) => {
    if (!nextZone) return;
    // Keep the wall-clock time the user sees; it now means that time in the new zone.
    const moved = isInstant(value) ? parsePickerValue(formatPickerValue(value, zone), nextZone) : value;
    onPatch({ [field.key]: moved ?? null, [timezoneKey(field.key)]: nextZone });
  };

  const boundDay = (iso?: string) => (iso ? wallClockOf(iso, zone).slice(0, 10) : undefined);

  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-start" wrap="wrap">
        <TextInput
          id={inputId}
          aria-label={field.label}
          style={{ flex: '1 1 12rem', maxWidth: compact ? undefined : '16rem' }}
          value={typing.text}
          placeholder={PICKER_MASK}
          size={compact ? 'xs' : 'sm'}
          error={error ?? (typing.invalid ? MASK_HINT : undefined)}
          onChange={(event) => typing.handleText(event.currentTarget.value)}
          onBlur={typing.stopTyping}
          rightSection={
            <DateTimePickerPopover
              wallClock={isInstant(value) ? wallClockOf(value, zone) : null}
              label={field.label}
              timeLabel={`${field.label} time`}
              minDate={boundDay(field.min)}
              maxDate={boundDay(field.max)}
              onPick={(mask) => {
                const instant = parsePickerValue(mask, zone);
                if (instant) commit(instant);
              }}
            />
          }
        />
        <Select
          aria-label={`${field.label} time zone`}
          data={zoneOptions}
          value={zone}
          allowDeselect={false}
          searchable={zoneOptions.length > 8}
          size={compact ? 'xs' : 'sm'}
          style={{ flex: '1 1 11rem', maxWidth: compact ? undefined : '14rem' }}
          comboboxProps={{ withinPortal: true }}
          onChange={handleZone}
        />
      </Group>
      {!compact && <DateTimeHelp field={field} value={value} zone={zone} />}
    </Stack>
  );
}
