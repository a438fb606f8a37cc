import { useState } from 'react';
import { ActionIcon, Popover, Stack, TextInput } from '@mantine/core';
import { DatePicker, TimePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { formatInZone, formatPickerValue, parsePickerValue, PICKER_MASK } from '@shared/time/format';
import { UPLOAD_TIMEZONE } from '@shared/time/zones';

const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';
const DEFAULT_TIME = '09:00';

export interface UploadDateInputProps {
  label?: string;
  'aria-label'?: string;
  description?: string;
  /** An ISO instant or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  size?: 'xs' | 'sm';
  disabled?: boolean;
  error?: string | null;
}

/**
 * A date and time of the bulk upload: typed as YYYY/MM/DD HH:mm (24-hour) or picked from a calendar,
 * always in the upload time zone, America/Los_Angeles (spec §9).
 */
export function UploadDateInput({
  label,
  description,
  value,
  onChange,
  size = 'sm',
  disabled,
  error,
  ...rest
}: UploadDateInputProps) {
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const zone = UPLOAD_TIMEZONE;
  const shown = value ? formatPickerValue(value, zone) : '';
  const text = typed ?? shown;
  const invalid = typed !== null && typed.trim() !== '' && parsePickerValue(typed, zone) === null;
  const wallClock = value ? formatInZone(value, zone, WALL_CLOCK) : null;

  const handleText = (next: string) => {
    setTyped(next);
    if (next.trim() === '') onChange(null);
    else {
      const instant = parsePickerValue(next, zone);
      if (instant) onChange(instant);
    }
  };

  const fromParts = (day: string, time: string) =>
    parsePickerValue(`${day.replace(/-/g, '/')} ${time}`, zone);

  return (
    <TextInput
      label={label}
      aria-label={rest['aria-label'] ?? label}
      description={description}
      value={text}
      placeholder={PICKER_MASK}
      size={size}
      disabled={disabled}
      error={error ?? (invalid ? `Type ${PICKER_MASK} (24-hour)` : undefined)}
      onChange={(event) => handleText(event.currentTarget.value)}
      onBlur={() => setTyped(null)}
      rightSection={
        <Popover
          opened={open}
          onChange={setOpen}
          position="bottom-end"
          withinPortal
          shadow="md"
          disabled={disabled}
        >
          <Popover.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size={size === 'xs' ? 'sm' : 'md'}
              aria-label={`Pick ${label ?? rest['aria-label'] ?? 'date'}`}
              onClick={() => setOpen((o) => !o)}
              disabled={disabled}
            >
              <IconCalendar size={size === 'xs' ? 14 : 16} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap="xs">
              <DatePicker
                value={wallClock ? wallClock.slice(0, 10) : null}
                defaultDate={wallClock ? wallClock.slice(0, 10) : undefined}
                onChange={(day) => {
                  if (!day) return;
                  const instant = fromParts(
                    String(day).slice(0, 10),
                    wallClock ? wallClock.slice(11, 16) : DEFAULT_TIME,
                  );
                  if (instant) {
                    setTyped(null);
                    onChange(instant);
                  }
                }}
              />
              <TimePicker
                aria-label="Time"
                format="24h"
                value={wallClock ? wallClock.slice(11, 16) : ''}
                disabled={!wallClock}
                onChange={(time) => {
                  if (!wallClock || !/^\d{2}:\d{2}/.test(time)) return;
                  const instant = fromParts(wallClock.slice(0, 10), time.slice(0, 5));
                  if (instant) onChange(instant);
                }}
              />
            </Stack>
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
}
