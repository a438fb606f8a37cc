import { Textarea, TextInput } from '@mantine/core';
import type { MultilineField, TextField as TextFieldDef } from '@shared/schemas/types';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue, asText } from './view-value';

/** Single-line text. */
export function TextField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<TextFieldDef>) {
  if (readOnly) return <ViewValue>{asText(value)}</ViewValue>;
  return (
    <TextInput
      id={inputId}
      aria-label={field.label}
      value={asText(value)}
      placeholder={field.placeholder}
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : field.description}
      error={error}
      size={compact ? 'xs' : 'sm'}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** Multi-line text that grows with its content. */
export function MultilineTextField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<MultilineField>) {
  if (readOnly) return <ViewValue>{asText(value)}</ViewValue>;
  return (
    <Textarea
      id={inputId}
      aria-label={field.label}
      value={asText(value)}
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : field.description}
      error={error}
      autosize
      minRows={compact ? 1 : (field.rows ?? 3)}
      maxRows={compact ? 4 : 14}
      size={compact ? 'xs' : 'sm'}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
