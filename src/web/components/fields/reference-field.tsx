import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Avatar, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconLink, IconX } from '@tabler/icons-react';
import type {
  Reference,
  ReferenceField as ReferenceFieldDef,
  ReferenceListField as ReferenceListFieldDef,
} from '@shared/schemas/types';
import { isReferenceFull, moveEntry, referenceLabel, removeEntry } from '@shared/validation/list-fields';
import { useFieldEnvironment } from './field-environment';
import { MoveEntryButtons } from './list-entry-actions';
import type { FieldProps, ReferenceSearch } from './types';
import { ViewValue } from './view-value';

const isReference = (value: unknown): value is Reference =>
  !!value && typeof value === 'object' && typeof (value as Reference).id === 'string';

const asReferences = (value: unknown): Reference[] => (Array.isArray(value) ? value.filter(isReference) : []);

/** One reference as a chip: thumbnail (or initial), label ('-- UNNAMED ITEM --' when unnamed) and type. */
function ReferenceChip({ reference, actions }: { reference: Reference; actions?: React.ReactNode }) {
  const { thumbnailUrl, model } = useFieldEnvironment();
  const label = referenceLabel(reference);
  const typeTitle = model.schema(reference.schemaType)?.title ?? reference.schemaType;
  return (
    <Paper px="xs" py={6} radius="md" data-reference-chip={reference.id}>
      <Group gap="sm" wrap="nowrap">
        <Avatar
          size={32}
          radius="sm"
          src={reference.thumbId && thumbnailUrl ? thumbnailUrl(reference.thumbId) : undefined}
          alt={reference.altText ?? label}
          color="marquee"
        >
          <IconLink size={16} />
        </Avatar>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} truncate c={reference.label?.trim() ? undefined : 'dimmed'}>
            {label}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {typeTitle} · {reference.id}
          </Text>
        </div>
        {actions && (
          <Group gap={2} wrap="nowrap">
            {actions}
          </Group>
        )}
      </Group>
    </Paper>
  );
}

/** A search box over the referenceable items; choosing one calls onPick and empties the box. */
function ReferencePicker({
  label,
  schemaTypes,
  exclude,
  onPick,
  inputId,
  error,
  search,
}: {
  label: string;
  schemaTypes: readonly string[];
  exclude: readonly string[];
  onPick: (reference: Reference) => void;
  inputId: string;
  error?: string;
  search?: ReferenceSearch;
}) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Reference[]>([]);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);

  useEffect(() => {
    if (!search) return;
    const id = ++request.current;
    const timer = setTimeout(() => {
      setLoading(true);
      search(schemaTypes, query)
        .then((found) => {
          if (request.current === id) setResults(found);
        })
        .catch(() => {
          if (request.current === id) setResults([]);
        })
        .finally(() => {
          if (request.current === id) setLoading(false);
        });
    }, 200);
    return () => clearTimeout(timer);
  }, [search, schemaTypes, query]);

  const { model } = useFieldEnvironment();
  const options = results.filter((reference) => !exclude.includes(reference.id));
  const titles = schemaTypes.map((type) => model.schema(type)?.pluralTitle ?? type).join(' or ');
  return (
    <Select
      id={inputId}
      aria-label={label}
      placeholder={search ? `Search ${titles}…` : 'Search is not available here'}
      disabled={!search}
      searchable
      value={null}
      searchValue={query}
      onSearchChange={setQuery}
      data={options.map((reference) => ({ value: reference.id, label: referenceLabel(reference) }))}
      filter={({ options: all }) => all}
      nothingFoundMessage={loading ? 'Searching…' : 'Nothing found'}
      error={error}
      comboboxProps={{ withinPortal: true }}
      onChange={(id) => {
        const picked = options.find((reference) => reference.id === id);
        if (picked) {
          onPick(picked);
          setQuery('');
        }
      }}
    />
  );
}

/** Spec §5: a single reference is full after one selection; remove it to choose another. */
export function ReferenceField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
}: FieldProps<ReferenceFieldDef>) {
  const { referenceSearch } = useFieldEnvironment();
  const reference = isReference(value) ? value : null;
  if (readOnly) return reference ? <ReferenceChip reference={reference} /> : <ViewValue />;
  if (isReferenceFull(field, reference) && reference)
    return (
      <ReferenceChip
        reference={reference}
        actions={
          <Tooltip label="Remove">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove ${referenceLabel(reference)}`}
              onClick={() => onChange(null)}
            >
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        }
      />
    );
  return (
    <ReferencePicker
      label={field.label}
      schemaTypes={field.schemaTypes}
      exclude={[]}
      inputId={inputId}
      error={error}
      search={referenceSearch}
      onPick={(picked) => onChange(picked)}
    />
  );
}

/** Spec §5: an ordered list of references, reordered up and down. */
export function ReferenceListField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
}: FieldProps<ReferenceListFieldDef>) {
  const { referenceSearch } = useFieldEnvironment();
  const references = asReferences(value);
  if (readOnly)
    return references.length === 0 ? (
      <ViewValue />
    ) : (
      <Stack gap={6}>
        {references.map((reference) => (
          <ReferenceChip key={reference.id} reference={reference} />
        ))}
      </Stack>
    );
  const update = (next: Reference[]) => onChange(next.length ? next : null);
  return (
    <Stack gap={6}>
      {references.map((reference, index) => {
        const name = referenceLabel(reference);
        return (
          <ReferenceChip
            key={reference.id}
            reference={reference}
            actions={
              <>
                <MoveEntryButtons
                  name={name}
                  index={index}
                  count={references.length}
                  onMove={(direction) => update(moveEntry(references, index, direction))}
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Remove ${name}`}
                  onClick={() => update(removeEntry(references, index))}
                >
                  <IconX size={16} />
                </ActionIcon>
              </>
            }
          />
        );
      })}
      <ReferencePicker
        label={field.label}
        schemaTypes={field.schemaTypes}
        exclude={references.map((reference) => reference.id)}
        inputId={inputId}
        error={error}
        search={referenceSearch}
        onPick={(picked) => update([...references, picked])}
      />
    </Stack>
  );
}
