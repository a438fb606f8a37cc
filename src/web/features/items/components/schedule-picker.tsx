import { useState } from 'react';
import { Group, SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import type { Workspace } from '@shared/api/workspaces';
import { dayjs } from '@shared/time/dayjs';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';

/** 'Now' or 'Schedule for …' a time in one of the workspace's time zones (the publish and unpublish screens). */
export function useSchedulePicker(workspace: Workspace) {
  const zones = workspace.basics.timezones.length ? workspace.basics.timezones : [dayjs.tz.guess()];
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [zone, setZone] = useState(zones[0]);
  const [localTime, setLocalTime] = useState(() =>
    dayjs().tz(zones[0]).add(1, 'hour').startOf('hour').format('YYYY-MM-DDTHH:mm'),
  );
  const at = localTime ? dayjs.tz(localTime, zone) : null;
  return {
    zones,
    when,
    setWhen,
    zone,
    setZone,
    localTime,
    setLocalTime,
    isLater: when === 'later',
    /** The chosen time, when it is one. */
    at: at?.isValid() ? at : null,
    isInvalid: at !== null && !at.isValid(),
    /** e.g. "Mon Nov 23rd, 2026 3:41 AM" in the chosen zone. */
    label: at?.isValid() ? at.format(DATE_DISPLAY_FORMAT) : '…',
  };
}

export type SchedulePickerState = ReturnType<typeof useSchedulePicker>;

export function SchedulePicker({ picker, nowLabel }: { picker: SchedulePickerState; nowLabel: string }) {
  return (
    <>
      <SegmentedControl
        mt="md"
        value={picker.when}
        onChange={(value) => picker.setWhen(value as 'now' | 'later')}
        data={[
          { value: 'now', label: nowLabel },
          { value: 'later', label: 'Schedule for …' },
        ]}
        aria-label="When"
      />
      {picker.isLater && (
        <>
          <Group mt="sm" grow align="flex-start">
            <TextInput
              type="datetime-local"
              step={1}
              label="Date and time"
              value={picker.localTime}
              onChange={(e) => picker.setLocalTime(e.currentTarget.value)}
              error={picker.isInvalid ? 'Not a date and time' : undefined}
            />
            <Select
              label="Time zone"
              data={picker.zones}
              value={picker.zone}
              onChange={(value) => value && picker.setZone(value)}
              allowDeselect={false}
            />
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            It runs with your rights at that time; a publish runs only if the version then current is
            approved.
          </Text>
        </>
      )}
    </>
  );
}
