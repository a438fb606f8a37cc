import { DateInput } from '@mantine/dates';
import type { DateField as DateFieldDef } from '@shared/schemas/types';
import { dayjs } from '@shared/time/dayjs';
import { datePickerBoundsHint } from '@shared/time/format';
import type { FieldProps } from './types';
import { fieldHelp, INPUT_ORDER, ViewValue } from './view-value';

/** The date part of the spec's display format 'ddd MMM Do, YYYY h:mm A'. */
const DATE_ONLY_DISPLAY_FORMAT = 'ddd MMM Do, YYYY';
const DATE_MASK = 'YYYY/MM/DD';

const DATE_PATTERN = /^(\d{4})\/(\d{2})\/(\d{2})$/;

/** Typed 'YYYY/MM/DD' → 'YYYY-MM-DD', or null when it names no real day. */
function parseDateText(text: string): string | null {
  const match = DATE_PATTERN.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * A calendar date stored as 'YYYY-MM-DD', typed as YYYY/MM/DD, with the field's own help and, when it
 * has bounds, the spec's hint.
 */
export function DateField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<DateFieldDef>) {
  const date = typeof value === 'string' && value ? value : null;
  if (readOnly) return <ViewValue>{date ? dayjs(date).format(DATE_ONLY_DISPLAY_FORMAT) : ''}</ViewValue>;
  return (
    <DateInput
      id={inputId}
      aria-label={field.label}
      value={date}
      valueFormat={DATE_MASK}
      placeholder={DATE_MASK}
      dateParser={parseDateText}
      minDate={field.min}
      maxDate={field.max}
      clearable
      inputWrapperOrder={INPUT_ORDER}
      description={
        compact ? undefined : fieldHelp(field.description, datePickerBoundsHint(field.min, field.max))
      }
      error={error}
      size={compact ? 'xs' : 'sm'}
      popoverProps={{ withinPortal: true }}
      onChange={(next) => onChange(next ? String(next).slice(0, 10) : null)}
    />
  );
}
