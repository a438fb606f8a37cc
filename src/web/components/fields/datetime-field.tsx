import { useState } from 'react';
import { ActionIcon, Group, Popover, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePicker, TimePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import type { DateTimeField as DateTimeFieldDef } from '@shared/schemas/types';
import { timezoneKey } from '@shared/schemas/types';
import {
  datePickerHint,
  defaultTimezone,
  formatInZone,
  formatPickerValue,
  parsePickerValue,
  PICKER_MASK,
} from '@shared/time/format';
import { isKnownTimezone } from '@shared/time/zones';
import { useFieldEnvironment } from './field-environment';
import type { FieldProps } from './types';
import { ViewValue } from './view-value';

/** Mantine's pickers speak wall-clock strings; ours are 'YYYY/MM/DD HH:mm' in the item's zone. */
const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';
const toMask = (wallClock: string) => wallClock.slice(0, 16).replace(/-/g, '/').replace('T', ' ');

/** The time a day picked from the calendar gets when the value has none yet. */
const DEFAULT_TIME = '09:00';

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
  const shown = isInstant(value) ? formatPickerValue(value, zone) : '';
  const [typed, setTyped] = useState<string | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);

  if (readOnly) return <DateTimeDisplay value={value} zone={zone} />;

  const text = typed ?? shown;
  const typedInvalid = typed !== null && typed.trim() !== '' && parsePickerValue(typed, zone) === null;
  const zoneOptions = [...new Set([...timezones, zone])].map((name) => ({
    value: name,
    label: name.replace(/_/g, ' '),
  }));

  const commit = (instant: string | null) =>
    instant ? onPatch({ [field.key]: instant, [timezoneKey(field.key)]: zone }) : onChange(null);

  const handleText = (next: string) => {
    setTyped(next);
    if (next.trim() === '') commit(null);
    else {
      const instant = parsePickerValue(next, zone);
      if (instant) commit(instant);
    }
  };

  const handleZone = (nextZone: string | null) => {
    if (!nextZone) return;
    // Keep the wall-clock time the user sees; it now means that time in the new zone.
    const moved = isInstant(value) ? parsePickerValue(formatPickerValue(value, zone), nextZone) : value;
    onPatch({ [field.key]: moved ?? null, [timezoneKey(field.key)]: nextZone });
  };

  const pickerValue = isInstant(value) ? formatInZone(value, zone, WALL_CLOCK) : null;
  const bound = (iso?: string) => (iso ? formatInZone(iso, zone, WALL_CLOCK) : undefined);

  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-start" wrap="wrap">
        <TextInput
          id={inputId}
          aria-label={field.label}
          style={{ flex: '1 1 12rem', maxWidth: compact ? undefined : '16rem' }}
          value={text}
          placeholder={PICKER_MASK}
          size={compact ? 'xs' : 'sm'}
          error={error ?? (typedInvalid ? MASK_HINT : undefined)}
          onChange={(event) => handleText(event.currentTarget.value)}
          onBlur={() => setTyped(null)}
          rightSection={
            <Popover
              opened={pickerOpen}
              onChange={setPickerOpen}
              position="bottom-end"
              withinPortal
              shadow="md"
            >
              <Popover.Target>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Pick ${field.label}`}
                  onClick={() => setPickerOpen((open) => !open)}
                >
                  <IconCalendar size={16} />
                </ActionIcon>
              </Popover.Target>
              <Popover.Dropdown>
                <Stack gap="xs">
                  <DatePicker
                    value={pickerValue ? pickerValue.slice(0, 10) : null}
                    defaultDate={pickerValue ? pickerValue.slice(0, 10) : undefined}
                    minDate={bound(field.min)?.slice(0, 10)}
                    maxDate={bound(field.max)?.slice(0, 10)}
                    onChange={(day) => {
                      if (!day) return;
                      const time = pickerValue ? pickerValue.slice(11, 16) : DEFAULT_TIME;
                      const instant = parsePickerValue(toMask(`${String(day).slice(0, 10)} ${time}`), zone);
                      if (instant) commit(instant);
                    }}
                  />
                  <TimePicker
                    aria-label={`${field.label} time`}
                    format="24h"
                    value={pickerValue ? pickerValue.slice(11, 16) : ''}
                    disabled={!pickerValue}
                    onChange={(value) => {
                      const time = value.slice(0, 5);
                      if (!pickerValue || !/^\d{2}:\d{2}$/.test(time)) return;
                      const instant = parsePickerValue(toMask(`${pickerValue.slice(0, 10)} ${time}`), zone);
                      if (instant) commit(instant);
                    }}
                  />
                </Stack>
              </Popover.Dropdown>
            </Popover>
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
      {!compact && (
        <Text size="xs" c="dimmed">
          {isInstant(value) ? `${formatInZone(value, zone)} · ` : ''}
          {datePickerHint(field.min, field.max, zone)}
        </Text>
      )}
    </Stack>
  );
}
