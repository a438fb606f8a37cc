import { TextInput } from '@mantine/core';
import type { GeneratableField as GeneratableFieldDef } from '@shared/schemas/types';
import { isGeneratedField } from '@shared/validation/generatable';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue, asText } from './view-value';

/**
 * Generatable text (spec §5): with a generate length above 10 it is read-only; the form fills it with a
 * random alphanumeric string of that length when it opens (see `prepareItemData`).
 */
export function GeneratableField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<GeneratableFieldDef>) {
  if (readOnly) return <ViewValue>{asText(value)}</ViewValue>;
  const generated = isGeneratedField(field);
  return (
    <TextInput
      id={inputId}
      aria-label={field.label}
      value={asText(value)}
      readOnly={generated}
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : generated ? 'Generated automatically' : field.description}
      error={error}
      size={compact ? 'xs' : 'sm'}
      styles={generated ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
