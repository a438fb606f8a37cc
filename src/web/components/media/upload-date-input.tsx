import { TextInput } from '@mantine/core';
import { formatPickerValue, parsePickerValue, PICKER_MASK } from '@shared/time/format';
import { UPLOAD_TIMEZONE } from '@shared/time/zones';
import { DateTimePickerPopover, useTypedInstant, wallClockOf } from '../fields/date-time-picker';

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
  const zone = UPLOAD_TIMEZONE;
  const typing = useTypedInstant(value ? formatPickerValue(value, zone) : '', zone, onChange);
  const handlePick = (mask: string, picked: 'day' | 'time') => {
    const instant = parsePickerValue(mask, zone);
    if (!instant) return;
    if (picked === 'day') typing.stopTyping();
    onChange(instant);
  };

  return (
    <TextInput
      label={label}
      aria-label={rest['aria-label'] ?? label}
      description={description}
      value={typing.text}
      placeholder={PICKER_MASK}
      size={size}
      disabled={disabled}
      error={error ?? (typing.invalid ? `Type ${PICKER_MASK} (24-hour)` : undefined)}
      onChange={(event) => typing.handleText(event.currentTarget.value)}
      onBlur={typing.stopTyping}
      rightSection={
        <DateTimePickerPopover
          wallClock={value ? wallClockOf(value, zone) : null}
          label={label ?? rest['aria-label'] ?? 'date'}
          timeLabel="Time"
          buttonSize={size === 'xs' ? 'sm' : 'md'}
          iconSize={size === 'xs' ? 14 : 16}
          disabled={disabled}
          onPick={handlePick}
        />
      }
    />
  );
}
