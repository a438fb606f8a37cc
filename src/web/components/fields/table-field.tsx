import { ActionIcon, Button, Group, Table, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TableField as TableFieldDef } from '@shared/schemas/types';
import { canAddRow, moveEntry, removeEntry } from '@shared/validation/list-fields';
import type { FieldProps, ItemData, NestedFieldProps } from './types';
import { ViewValue } from './view-value';

const asRows = (value: unknown): ItemData[] =>
  Array.isArray(value) ? value.map((row) => (row && typeof row === 'object' ? (row as ItemData) : {})) : [];

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
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36}>#</Table.Th>
              {field.columns.map((column) => (
                <Table.Th key={column.key}>
                  {column.label}
                  {column.required && !readOnly && (
                    <Text span c="red" ml={2}>
                      *
                    </Text>
                  )}
                </Table.Th>
              ))}
              {!readOnly && <Table.Th w={104} aria-label="Row actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, index) => (
              <Table.Tr key={index} data-row={index}>
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
                      onPatch={(patch) => patchRow(index, patch)}
                      readOnly={readOnly}
                      errors={errors}
                      pathPrefix={`${path}.${index}.`}
                      compact
                    />
                  </Table.Td>
                ))}
                {!readOnly && (
                  <Table.Td>
                    <Group gap={0} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Move row ${index + 1} up`}
                        disabled={index === 0}
                        onClick={() => update(moveEntry(rows, index, -1))}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Move row ${index + 1} down`}
                        disabled={index === rows.length - 1}
                        onClick={() => update(moveEntry(rows, index, 1))}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove row ${index + 1}`}
                        onClick={() => update(removeEntry(rows, index))}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
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
      {!readOnly && (
        <Group justify="space-between" mt="xs">
          {canAddRow(field, rows) ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => update([...rows, {}])}
            >
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
      )}
      {error && (
        <Text size="xs" c="red" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}
