import { useEffect, useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import type { Reference } from '@shared/schemas/types';
import { useFieldEnvironment } from '../fields/field-environment';
import { useCriteriaDefinitions } from '../criteria-builder/api';

/** The workspace's items of a schema (email templates, audiences), through the form's reference search. */
function useItems(schema: string) {
  const { referenceSearch } = useFieldEnvironment();
  const [items, setItems] = useState<Reference[]>([]);
  useEffect(() => {
    let isCurrent = true;
    void referenceSearch?.([schema], '').then((found) => isCurrent && setItems(found));
    return () => {
      isCurrent = false;
    };
  }, [referenceSearch, schema]);
  return items;
}

/** Options of a select, keeping a stored value the list does not offer (a deleted item, a renamed key). */
export function withValue(options: { value: string; label: string }[], value: string | null) {
  return value && !options.some((option) => option.value === value)
    ? [...options, { value, label: value }]
    : options;
}

const idOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

interface PickerProps {
  label: string;
  value: unknown;
  onChange: (value: string | undefined) => void;
  readOnly: boolean;
}

/** One item of a schema, by id. */
export function ItemSelect({
  schema,
  placeholder,
  nothingFound,
  clearable,
  ...props
}: PickerProps & { schema: string; placeholder: string; nothingFound: string; clearable?: boolean }) {
  const items = useItems(schema);
  const value = idOf(props.value);
  const options = items.map((each) => ({ value: each.id, label: each.label ?? each.id }));
  return (
    <Select
      size="xs"
      label={props.label}
      placeholder={placeholder}
      data={withValue(options, value)}
      value={value}
      searchable
      clearable={clearable}
      readOnly={props.readOnly}
      nothingFoundMessage={nothingFound}
      onChange={(next) => props.onChange(next ?? undefined)}
    />
  );
}

export const AudienceSelect = (props: PickerProps & { placeholder?: string; clearable?: boolean }) => (
  <ItemSelect schema="audience" placeholder="Choose an audience" nothingFound="No audiences" {...props} />
);

/** A customer profile attribute of type date, by its key (the key profiles store it under). */
export function DateAttributeSelect({ workspaceId, ...props }: PickerProps & { workspaceId: string }) {
  const definitions = useCriteriaDefinitions(workspaceId);
  const value = idOf(props.value);
  const options = (definitions.data?.attributes ?? [])
    .filter((attribute) => attribute.type === 'date')
    .map((attribute) => ({ value: attribute.key, label: attribute.label }));
  return (
    <Select
      size="xs"
      label={props.label}
      placeholder="Choose a date attribute"
      data={withValue(options, value)}
      value={value}
      searchable
      readOnly={props.readOnly}
      nothingFoundMessage="No date attributes"
      onChange={(next) => props.onChange(next ?? undefined)}
    />
  );
}

/** A time of day, HH:MM. */
export function TimeOfDayInput({ label, value, onChange, readOnly }: PickerProps) {
  return (
    <TextInput
      size="xs"
      type="time"
      label={label}
      value={typeof value === 'string' ? value : '09:00'}
      readOnly={readOnly}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
    />
  );
}
