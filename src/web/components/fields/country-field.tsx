import { Select } from '@mantine/core';
import type { CountryField as CountryFieldDef } from '@shared/schemas/types';
import { COUNTRY_OPTIONS, countryName } from '@shared/geo/countries';
import { OLD_VALUE_PREFIX } from '@shared/validation/messages';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue } from './view-value';

const OPTIONS = COUNTRY_OPTIONS.map((option) => ({
  value: option.value,
  label: `${option.label} (${option.value})`,
}));

/** A country from the ISO 3166-1 list (spec §9), searchable by name or code. */
export function CountryField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<CountryFieldDef>) {
  const code = typeof value === 'string' && value ? value : null;
  if (readOnly) {
    if (!code) return <ViewValue />;
    const name = countryName(code);
    return <ViewValue>{name ? `${name} (${code})` : `${OLD_VALUE_PREFIX}${code}`}</ViewValue>;
  }
  return (
    <Select
      id={inputId}
      aria-label={field.label}
      data={
        code && !countryName(code)
          ? [...OPTIONS, { value: code, label: `${OLD_VALUE_PREFIX}${code}` }]
          : OPTIONS
      }
      value={code}
      searchable
      clearable={!field.required}
      placeholder="Choose a country…"
      nothingFoundMessage="No such country"
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : field.description}
      error={error}
      size={compact ? 'xs' : 'sm'}
      onChange={(next) => onChange(next)}
    />
  );
}
