import { Badge, Group, MultiSelect, Select } from '@mantine/core';
import type { SelectField as SelectFieldDef } from '@shared/schemas/types';
import { OLD_VALUE_PREFIX } from '@shared/validation/messages';
import { selectDisplayOptions, selectOptionLabel } from '@shared/validation/select-options';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue } from './view-value';

const SEARCHABLE_FROM = 8;

const asValues = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : typeof value === 'string' && value
      ? [value]
      : [];

/**
 * Single or multiple choice (spec §8): a stored value no longer among the options is kept and reads
 * '--Old Value--{value}'.
 */
export function SelectField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<SelectFieldDef>) {
  const values = asValues(value);
  if (readOnly) {
    if (values.length === 0) return <ViewValue />;
    if (!field.multiple) return <ViewValue>{selectOptionLabel(field.options, values[0])}</ViewValue>;
    return (
      <Group gap={6}>
        {values.map((entry) => {
          const label = selectOptionLabel(field.options, entry);
          return (
            <Badge
              key={entry}
              variant="light"
              color={label.startsWith(OLD_VALUE_PREFIX) ? 'orange' : undefined}
              tt="none"
            >
              {label}
            </Badge>
          );
        })}
      </Group>
    );
  }
  const data = selectDisplayOptions(field.options, values);
  const common = {
    id: inputId,
    'aria-label': field.label,
    data,
    error,
    description: compact ? undefined : field.description,
    inputWrapperOrder: INPUT_ORDER,
    size: compact ? 'xs' : 'sm',
    searchable: data.length >= SEARCHABLE_FROM,
    nothingFoundMessage: 'Nothing found',
    comboboxProps: { withinPortal: true },
  } as const;
  if (field.multiple)
    return (
      <MultiSelect
        {...common}
        value={values}
        clearable
        placeholder={values.length === 0 ? 'Choose…' : undefined}
        onChange={(next) => onChange(next)}
      />
    );
  return (
    <Select
      {...common}
      value={values[0] ?? null}
      placeholder="Choose…"
      clearable={!field.required}
      allowDeselect={!field.required}
      onChange={(next) => onChange(next)}
    />
  );
}
