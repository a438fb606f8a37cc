import { useState } from 'react';
import { ActionIcon, Popover, Stack, type MantineSize } from '@mantine/core';
import { DatePicker, TimePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { formatInZone, parsePickerValue } from '@shared/time/format';

/** Mantine's pickers speak wall-clock strings; ours are 'YYYY/MM/DD HH:mm' in the value's zone. */
const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';

/** The time a day picked from the calendar gets when the value has none yet. */
const DEFAULT_TIME = '09:00';

/** An instant as the pickers' wall-clock 'YYYY-MM-DD HH:mm:ss' in `zone`. */
export const wallClockOf = (instant: string, zone: string) => formatInZone(instant, zone, WALL_CLOCK);

/**
 * The text of a date-time input typed in the mask: each change that parses (in `zone`) is committed,
 * emptying it commits null, and the value's own text comes back when the input loses focus.
 */
export function useTypedInstant(shown: string, zone: string, onCommit: (instant: string | null) => void) {
  const [typed, setTyped] = useState<string | null>(null);
  const invalid = typed !== null && typed.trim() !== '' && parsePickerValue(typed, zone) === null;
  const handleText = (next: string) => {
    setTyped(next);
    if (next.trim() === '') onCommit(null);
    else {
      const instant = parsePickerValue(next, zone);
      if (instant) onCommit(instant);
    }
  };
  const stopTyping = () => setTyped(null);
  return { text: typed ?? shown, invalid, handleText, stopTyping };
}

export interface DateTimePickerPopoverProps {
  /** The value as wall-clock 'YYYY-MM-DD HH:mm:ss', or null when there is none. */
  wallClock: string | null;
  /** Names the calendar button, 'Pick {label}'. */
  label: string;
  timeLabel: string;
  buttonSize?: MantineSize;
  iconSize?: number;
  disabled?: boolean;
  /** Bounds of the calendar, 'YYYY-MM-DD'. */
  minDate?: string;
  maxDate?: string;
  /**
   * A day picked (with the value's time, else 09:00) or a time picked for the value's day, in the mask
   * 'YYYY/MM/DD HH:mm'.
   */
  onPick: (mask: string, picked: 'day' | 'time') => void;
}

const toMask = (day: string, time: string) => `${day.replace(/-/g, '/')} ${time}`;

/** A calendar button that opens a day picker and a 24-hour time picker. */
export function DateTimePickerPopover({
  wallClock,
  label,
  timeLabel,
  buttonSize,
  iconSize = 16,
  disabled,
  minDate,
  maxDate,
  onPick,
}: DateTimePickerPopoverProps) {
  const [open, setOpen] = useState(false);
  return (
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
          size={buttonSize}
          aria-label={`Pick ${label}`}
          onClick={() => setOpen((o) => !o)}
          disabled={disabled}
        >
          <IconCalendar size={iconSize} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <DatePicker
            value={wallClock ? wallClock.slice(0, 10) : null}
            defaultDate={wallClock ? wallClock.slice(0, 10) : undefined}
            minDate={minDate}
            maxDate={maxDate}
            onChange={(day) => {
              if (!day) return;
              const time = wallClock ? wallClock.slice(11, 16) : DEFAULT_TIME;
              onPick(toMask(String(day).slice(0, 10), time), 'day');
            }}
          />
          <TimePicker
            aria-label={timeLabel}
            format="24h"
            value={wallClock ? wallClock.slice(11, 16) : ''}
            disabled={!wallClock}
            onChange={(time) => {
              if (!wallClock || !/^\d{2}:\d{2}/.test(time)) return;
              onPick(toMask(wallClock.slice(0, 10), time.slice(0, 5)), 'time');
            }}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
