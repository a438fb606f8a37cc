import { Badge, Group, TagsInput } from '@mantine/core';
import type { TagsField as TagsFieldDef } from '@shared/schemas/types';
import { dedupeTags } from '@shared/validation/tags';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue } from './view-value';

const asTags = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

/** Free entries (spec §5); entries are trimmed and duplicates removed. Enter or a comma adds a tag. */
export function TagsField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<TagsFieldDef>) {
  const tags = asTags(value);
  if (readOnly) {
    if (tags.length === 0) return <ViewValue />;
    return (
      <Group gap={6}>
        {tags.map((tag) => (
          <Badge key={tag} variant="light" tt="none">
            {tag}
          </Badge>
        ))}
      </Group>
    );
  }
  return (
    <TagsInput
      id={inputId}
      aria-label={field.label}
      value={tags}
      splitChars={[',']}
      acceptValueOnBlur
      clearable
      placeholder={tags.length === 0 ? 'Type and press Enter' : undefined}
      inputWrapperOrder={INPUT_ORDER}
      description={compact ? undefined : field.description}
      error={error}
      size={compact ? 'xs' : 'sm'}
      onChange={(next) => onChange(dedupeTags(next))}
    />
  );
}
