import { useState } from 'react';
import { TextInput } from '@mantine/core';
import type { NameSlugField as NameSlugFieldDef } from '@shared/schemas/types';
import { nameSlugValue } from '@shared/validation/name-slug';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue, asText } from './view-value';

/**
 * Name-slug (spec §5): what is typed is stored as kebab-case; cleared, the slug derives from the source
 * field (usually the name). While the input has focus it shows the text as typed, so spaces can be typed.
 */
export function NameSlugField({
  field,
  value,
  scope,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<NameSlugFieldDef>) {
  const [typed, setTyped] = useState<string | null>(null);
  if (readOnly) return <ViewValue>{asText(value)}</ViewValue>;
  const shown = typed ?? asText(value);
  // Cleared, the slug will be derived from the name: say what it will be.
  const derived = shown.trim() ? '' : nameSlugValue('', scope[field.from]);
  return (
    <TextInput
      id={inputId}
      aria-label={field.label}
      value={shown}
      inputWrapperOrder={INPUT_ORDER}
      description={
        compact
          ? undefined
          : derived
            ? `Derived from the name: ${derived}`
            : (field.description ??
              'Lower-case words joined by dashes. Leave empty to derive it from the name.')
      }
      error={error}
      size={compact ? 'xs' : 'sm'}
      onFocus={() => setTyped(asText(value))}
      onBlur={() => setTyped(null)}
      onChange={(event) => {
        const text = event.currentTarget.value;
        setTyped(text);
        onChange(nameSlugValue(text, scope[field.from], field.keepsDataKeys));
      }}
    />
  );
}
