import type { ComponentType } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import type {
  CombinationRow,
  CombinationsField as CombinationsFieldDef,
  FieldDef,
  VariationDef,
} from '@shared/schemas/types';
import { timezoneKey } from '@shared/schemas/types';
import { moveEntry, removeEntry } from '@shared/validation/list-fields';
import { selectOptionLabel } from '@shared/validation/select-options';
import { toKebabCase } from '@shared/text/slug';
import { useFieldEnvironment } from './field-environment';
import { RowEntryActions } from './list-entry-actions';
import type { FieldInputProps, FieldProps, ItemData, NestedFieldProps } from './types';
import { ViewValue } from './view-value';

const asRows = (value: unknown): CombinationRow[] =>
  Array.isArray(value)
    ? value.map((row) => {
        const entry = (row && typeof row === 'object' ? row : {}) as Partial<CombinationRow>;
        return {
          _slug: entry._slug ?? '',
          variations: entry.variations ?? {},
          overrides: entry.overrides ?? {},
        };
      })
    : [];

/** The keys an override of this field occupies (a date-time value and its zone). */
const overrideKeys = (field: FieldDef) =>
  field.type === 'datetime' ? [field.key, timezoneKey(field.key)] : [field.key];

/** A combination's Name, and the buttons that move it up, down or out. */
function CombinationHeader({
  row,
  index,
  count,
  readOnly,
  slugError,
  onPatch,
  onMove,
  onRemove,
}: {
  row: CombinationRow;
  index: number;
  count: number;
  readOnly: boolean;
  slugError?: string;
  onPatch: (patch: Partial<CombinationRow>) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" mb="xs">
      {readOnly ? (
        <Text fw={600} size="sm">
          {row._slug || '—'}
        </Text>
      ) : (
        <TextInput
          label="Name"
          aria-label={`Combination ${index + 1} name`}
          required
          size="xs"
          style={{ flex: 1, maxWidth: '20rem' }}
          value={row._slug}
          error={slugError}
          onChange={(event) => onPatch({ _slug: event.currentTarget.value })}
          onBlur={() => row._slug && onPatch({ _slug: toKebabCase(row._slug) })}
        />
      )}
      {!readOnly && (
        <RowEntryActions
          name={`combination ${index + 1}`}
          index={index}
          count={count}
          onMove={onMove}
          onRemove={onRemove}
        />
      )}
    </Group>
  );
}

/** The variation values a combination is for: badges when viewing, one select per variation when editing. */
function VariationChoices({
  row,
  variations,
  readOnly,
  onPatch,
}: {
  row: CombinationRow;
  variations: readonly VariationDef[];
  readOnly: boolean;
  onPatch: (patch: Partial<CombinationRow>) => void;
}) {
  if (variations.length === 0) return null;
  if (readOnly) {
    return (
      <Group gap={6} mb="xs">
        {variations
          .filter((variation) => row.variations[variation.name])
          .map((variation) => (
            <Badge key={variation.name} variant="light" tt="none">
              {variation.label}: {selectOptionLabel(variation.options, row.variations[variation.name])}
            </Badge>
          ))}
      </Group>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: Math.min(variations.length, 3) }} spacing="xs" mb="xs">
      {variations.map((variation) => (
        <Select
          key={variation.name}
          label={variation.label}
          size="xs"
          data={variation.options as { value: string; label: string }[]}
          value={row.variations[variation.name] ?? null}
          clearable
          placeholder="Any"
          comboboxProps={{ withinPortal: true }}
          onChange={(next) => {
            const chosen: Record<string, string> = { ...row.variations };
            if (next) chosen[variation.name] = next;
            else delete chosen[variation.name];
            onPatch({ variations: chosen });
          }}
        />
      ))}
    </SimpleGrid>
  );
}

/** The fields a combination overrides, each removable, and a select that adds another. */
function CombinationOverrides({
  row,
  index,
  rowPath,
  overridable,
  readOnly,
  errors,
  FieldInput,
  onPatch,
}: {
  row: CombinationRow;
  index: number;
  rowPath: string;
  overridable: readonly FieldDef[];
  readOnly: boolean;
  errors: FieldProps['errors'];
  FieldInput: ComponentType<FieldInputProps>;
  onPatch: (patch: Partial<CombinationRow>) => void;
}) {
  const overridden = overridable.filter((candidate) => candidate.key in row.overrides);
  const available = overridable.filter((candidate) => !(candidate.key in row.overrides));
  const overridesError = errors[`${rowPath}.overrides`];
  return (
    <Stack gap="xs">
      {overridden.map((override) => (
        <Group key={override.key} align="flex-start" wrap="nowrap" gap="xs">
          <Text size="sm" w={110} pt={readOnly ? 0 : 4} style={{ flexShrink: 0 }}>
            {override.label}
          </Text>
          <div style={{ flex: 1, minWidth: 0 }}>
            <FieldInput
              field={override}
              scope={row.overrides as ItemData}
              onPatch={(patch) => onPatch({ overrides: { ...row.overrides, ...patch } })}
              readOnly={readOnly}
              errors={errors}
              pathPrefix={`${rowPath}.overrides.`}
              compact
            />
          </div>
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove override ${override.label}`}
              onClick={() => {
                const rest = { ...row.overrides };
                overrideKeys(override).forEach((key) => delete rest[key]);
                onPatch({ overrides: rest });
              }}
            >
              <IconX size={16} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && available.length > 0 && (
        <Select
          aria-label={`Add override to combination ${index + 1}`}
          placeholder="Add an override…"
          size="xs"
          maw="16rem"
          data={available.map((candidate) => ({ value: candidate.key, label: candidate.label }))}
          value={null}
          comboboxProps={{ withinPortal: true }}
          onChange={(key) => key && onPatch({ overrides: { ...row.overrides, [key]: null } })}
        />
      )}
      {overridesError && (
        <Text size="xs" c="red">
          {overridesError}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Combination rows (spec §5, DESIGN §4): each has a unique Name (`_slug`), the chosen variation values
 * and at least one Override of another field of the item.
 */
export function CombinationsField({
  field,
  value,
  onChange,
  readOnly,
  error,
  errors,
  path,
  FieldInput,
}: FieldProps<CombinationsFieldDef> & NestedFieldProps) {
  const { schema } = useFieldEnvironment();
  const rows = asRows(value);
  const variations = schema.variations ?? [];
  const overridable = schema.fields.filter((candidate) => candidate.type !== 'combinations');
  if (readOnly && rows.length === 0) return <ViewValue />;

  const update = (next: CombinationRow[]) => onChange(next.length ? next : null);
  const patchRow = (index: number, patch: Partial<CombinationRow>) =>
    update(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <Stack gap="sm" aria-label={field.label}>
      {rows.map((row, index) => {
        const rowPath = `${path}.${index}`;
        const onPatch = (patch: Partial<CombinationRow>) => patchRow(index, patch);
        return (
          <Card key={index} padding="sm" radius="md" data-combination={index}>
            <CombinationHeader
              row={row}
              index={index}
              count={rows.length}
              readOnly={readOnly}
              slugError={errors[`${rowPath}._slug`]}
              onPatch={onPatch}
              onMove={(step) => update(moveEntry(rows, index, step))}
              onRemove={() => update(removeEntry(rows, index))}
            />
            <VariationChoices row={row} variations={variations} readOnly={readOnly} onPatch={onPatch} />
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4}>
              Overrides
            </Text>
            <CombinationOverrides
              row={row}
              index={index}
              rowPath={rowPath}
              overridable={overridable}
              readOnly={readOnly}
              errors={errors}
              FieldInput={FieldInput}
              onPatch={onPatch}
            />
          </Card>
        );
      })}
      {!readOnly && (
        <Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => update([...rows, { _slug: '', variations: {}, overrides: {} }])}
          >
            Add combination
          </Button>
        </Group>
      )}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
