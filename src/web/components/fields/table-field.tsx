import { Button, Group, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { TableField as TableFieldDef } from '@shared/schemas/types';
import { canAddRow, moveEntry, removeEntry } from '@shared/validation/list-fields';
import { isMarkedRequired } from '@shared/validation/name-slug';
import { RowEntryActions } from './list-entry-actions';
import type { FieldProps, ItemData, NestedFieldProps } from './types';
import { ViewValue } from './view-value';

const asRows = (value: unknown): ItemData[] =>
  Array.isArray(value) ? value.map((row) => (row && typeof row === 'object' ? (row as ItemData) : {})) : [];

function TableHead({ field, readOnly }: { field: TableFieldDef; readOnly: boolean }) {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th w={36}>#</Table.Th>
        {field.columns.map((column) => (
          <Table.Th key={column.key}>
            {column.label}
            {isMarkedRequired(column) && !readOnly && (
              <Text span c="red" ml={2}>
                *
              </Text>
            )}
          </Table.Th>
        ))}
        {!readOnly && <Table.Th w={104} aria-label="Row actions" />}
      </Table.Tr>
    </Table.Thead>
  );
}

/** One row: its number, a compact input per column, and (when editing) move and remove. */
function TableRow({
  field,
  row,
  index,
  count,
  readOnly,
  errors,
  path,
  FieldInput,
  onPatch,
  onMove,
  onRemove,
}: {
  field: TableFieldDef;
  row: ItemData;
  index: number;
  count: number;
  readOnly: boolean;
  errors: FieldProps['errors'];
  path: string;
  onPatch: (patch: Readonly<ItemData>) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
} & NestedFieldProps) {
  return (
    <Table.Tr data-row={index}>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {index + 1}
        </Text>
      </Table.Td>
      {field.columns.map((column) => (
        <Table.Td key={column.key} style={{ verticalAlign: 'top' }}>
          <FieldInput
            field={column}
            scope={row}
            onPatch={onPatch}
            readOnly={readOnly}
            errors={errors}
            pathPrefix={`${path}.${index}.`}
            compact
          />
        </Table.Td>
      ))}
      {!readOnly && (
        <Table.Td>
          <RowEntryActions
            name={`row ${index + 1}`}
            index={index}
            count={count}
            onMove={onMove}
            onRemove={onRemove}
          />
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** Add row while the table has room, and how many rows of the maximum it holds. */
function TableFooter({ field, rows, onAdd }: { field: TableFieldDef; rows: ItemData[]; onAdd: () => void }) {
  return (
    <Group justify="space-between" mt="xs">
      {canAddRow(field, rows) ? (
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={onAdd}>
          Add row
        </Button>
      ) : (
        <span />
      )}
      {field.maxRows !== undefined && (
        <Text size="xs" c="dimmed">
          {rows.length} of {field.maxRows} rows
        </Text>
      )}
    </Group>
  );
}

/**
 * Rows whose columns are fields (spec §5): add, edit in place, remove, move up and down. Add is hidden
 * once the table holds its maximum row count.
 */
export function TableField({
  field,
  value,
  onChange,
  readOnly,
  error,
  errors,
  path,
  FieldInput,
}: FieldProps<TableFieldDef> & NestedFieldProps) {
  const rows = asRows(value);
  if (readOnly && rows.length === 0) return <ViewValue />;
  const update = (next: ItemData[]) => onChange(next.length ? next : null);
  const patchRow = (index: number, patch: Readonly<ItemData>) =>
    update(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <div>
      <Table.ScrollContainer minWidth={360}>
        <Table
          withTableBorder
          withColumnBorders={false}
          verticalSpacing={6}
          horizontalSpacing="xs"
          aria-label={field.label}
        >
          <TableHead field={field} readOnly={readOnly} />
          <Table.Tbody>
            {rows.map((row, index) => (
              <TableRow
                key={index}
                field={field}
                row={row}
                index={index}
                count={rows.length}
                readOnly={readOnly}
                errors={errors}
                path={path}
                FieldInput={FieldInput}
                onPatch={(patch) => patchRow(index, patch)}
                onMove={(direction) => update(moveEntry(rows, index, direction))}
                onRemove={() => update(removeEntry(rows, index))}
              />
            ))}
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={field.columns.length + 2}>
                  <Text size="sm" c="dimmed">
                    No rows yet
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!readOnly && <TableFooter field={field} rows={rows} onAdd={() => update([...rows, {}])} />}
      {error && (
        <Text size="xs" c="red" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}
