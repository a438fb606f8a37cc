import { useMemo } from 'react';
import { MultiSelect } from '@mantine/core';
import { DEFAULT_TIMEZONES } from '@shared/time/zones';

interface TimezonesInputProps {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}

function allZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [...DEFAULT_TIMEZONES];
  }
}

/** The workspace's time zones (spec §9: they override the five defaults). */
export function TimezonesInput({ value, onChange, error }: TimezonesInputProps) {
  const data = useMemo(() => [...new Set([...DEFAULT_TIMEZONES, ...allZones(), ...value])], [value]);
  return (
    <MultiSelect
      label="Time zones"
      description="Offered when people enter dates and times."
      placeholder={value.length ? undefined : 'Search time zones'}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      limit={50}
      nothingFoundMessage="No time zone matches"
      error={error}
      hidePickedOptions
    />
  );
}
