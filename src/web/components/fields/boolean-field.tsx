import { Badge, Switch } from '@mantine/core';
import type { BooleanField as BooleanFieldDef } from '@shared/schemas/types';
import type { FieldProps } from './types';

export function BooleanField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
}: FieldProps<BooleanFieldDef>) {
  if (readOnly)
    return (
      <Badge variant="light" color={value === true ? 'teal' : 'gray'}>
        {value === true ? 'Yes' : 'No'}
      </Badge>
    );
  return (
    <Switch
      id={inputId}
      aria-label={field.label}
      checked={value === true}
      error={error}
      description={field.description}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
