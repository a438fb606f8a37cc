import { Group, NumberInput, Slider, Text } from '@mantine/core';
import type { NumberField as NumberFieldDef, RangeField as RangeFieldDef } from '@shared/schemas/types';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue } from './view-value';

const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && !Number.isNaN(value) ? value : undefined;

export function NumberField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<NumberFieldDef>) {
  const number = asNumber(value);
  if (readOnly) return <ViewValue>{number === undefined ? '' : number.toLocaleString('en-US')}</ViewValue>;
  return (
    <NumberInput
      id={inputId}
      aria-label={field.label}
      value={number ?? ''}
      min={field.min}
      max={field.max}
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : field.description}
      error={error}
      size={compact ? 'xs' : 'sm'}
      onChange={(next) => onChange(typeof next === 'number' ? next : next === '' ? null : Number(next))}
    />
  );
}

/** A slider over whole numbers from min to max (spec §5: step 1). */
export function RangeField({ field, value, onChange, readOnly, error, inputId }: FieldProps<RangeFieldDef>) {
  const number = asNumber(value);
  if (readOnly)
    return <ViewValue>{number === undefined ? '' : `${number} (${field.min}–${field.max})`}</ViewValue>;
  return (
    <div>
      <Group gap="md" wrap="nowrap" align="center">
        <Slider
          id={inputId}
          thumbLabel={field.label}
          style={{ flex: 1 }}
          min={field.min}
          max={field.max}
          step={1}
          value={number ?? field.min}
          marks={[
            { value: field.min, label: String(field.min) },
            { value: field.max, label: String(field.max) },
          ]}
          mb="md"
          onChange={onChange}
        />
        <Text size="sm" fw={600} w={48} ta="right" data-testid="range-value">
          {number ?? '—'}
        </Text>
      </Group>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </div>
  );
}
