import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Code,
  Group,
  Menu,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots, IconForms, IconLock, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { FieldOwner, ModelOp } from '@shared/model/types';
import type { FieldDef } from '@shared/schemas/types';
import { MoveEntryButtons } from '@web/components/fields/list-entry-actions';
import { FIELD_TYPE_LABELS } from '../field-types';

/** Keys of the fields the pending operations add, change or move. */
export function changedKeys(
  fields: readonly FieldDef[],
  applied: readonly FieldDef[] | undefined,
  moved: ReadonlySet<string>,
): Set<string> {
  // A new schema or block type is marked as a whole, not field by field.
  if (!applied) return new Set();
  const before = new Map(applied.map((field) => [field.key, JSON.stringify(field)]));
  return new Set(
    fields
      .filter((field) => moved.has(field.key) || before.get(field.key) !== JSON.stringify(field))
      .map((f) => f.key),
  );
}

export type FieldAction = { field?: FieldDef; focus?: 'label' | 'key' | 'type' };

interface Props {
  owner: FieldOwner;
  /** The owner in words, for the buttons' names: 'Blog Post'. */
  ownerTitle: string;
  fields: readonly FieldDef[];
  /** Keys of fields the pending change set adds or changes. */
  changed: ReadonlySet<string>;
  onEdit: (action: FieldAction) => void;
  onChange: (ops: ModelOp[]) => string | undefined;
  onRemove: (key: string) => void;
  /** What the list holds: a schema's or block type's fields, or a table's columns. */
  noun?: 'field' | 'column';
  /** Shown without actions (the columns of a locked table). */
  isReadOnly?: boolean;
}

function Flags({ field }: { field: FieldDef }) {
  return (
    <Group gap={4} wrap="nowrap">
      {field.required && (
        <Badge size="sm" variant="light" color="gray" tt="none">
          Required
        </Badge>
      )}
      {field.localized && (
        <Badge size="sm" variant="light" color="blue" tt="none">
          Localized
        </Badge>
      )}
      {field.displayIf && (
        <Badge size="sm" variant="light" color="grape" tt="none">
          Conditional
        </Badge>
      )}
      {field.locked && (
        <Tooltip label="Marquee relies on this field: it cannot be removed, renamed or retyped">
          <Badge size="sm" variant="outline" color="gray" tt="none" leftSection={<IconLock size={11} />}>
            Locked
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/** The fields of a schema or block type, in order, with their actions; every action adds operations. */
export function FieldTable({
  owner,
  ownerTitle,
  fields,
  changed,
  onEdit,
  onChange,
  onRemove,
  noun = 'field',
  isReadOnly = false,
}: Props) {
  const nouns = noun === 'field' ? 'Fields' : 'Columns';
  const move = (field: FieldDef, index: number) =>
    onChange([{ op: 'moveField', ...owner, key: field.key, index }]);
  return (
    <>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed" py="sm">
          No {nouns.toLowerCase()} yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6} horizontalSpacing="sm" aria-label={`${nouns} of ${ownerTitle}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Flags</Table.Th>
                {!isReadOnly && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((field, index) => (
                <FieldRow
                  key={field.key}
                  field={field}
                  index={index}
                  count={fields.length}
                  isChanged={changed.has(field.key)}
                  noun={noun}
                  isReadOnly={isReadOnly}
                  onMove={(by) => move(field, index + by)}
                  onEdit={onEdit}
                  onRemove={() => onRemove(field.key)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!isReadOnly && (
        <Group mt="xs">
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            aria-label={`Add ${noun} to ${ownerTitle}`}
            onClick={() => onEdit({})}
          >
            Add {noun}
          </Button>
        </Group>
      )}
    </>
  );
}

function FieldRow({
  field,
  index,
  count,
  isChanged,
  noun,
  isReadOnly,
  onMove,
  onEdit,
  onRemove,
}: {
  field: FieldDef;
  index: number;
  count: number;
  isChanged: boolean;
  noun: 'field' | 'column';
  isReadOnly: boolean;
  onMove: (by: -1 | 1) => void;
  onEdit: (action: FieldAction) => void;
  onRemove: () => void;
}) {
  return (
    <Table.Tr data-testid={`${noun}-${field.key}`}>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={550}>
            {field.label}
          </Text>
          {isChanged && (
            <Badge size="xs" variant="dot" color="orange" tt="none">
              Not applied
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Code>{field.key}</Code>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{FIELD_TYPE_LABELS[field.type] ?? field.type}</Text>
      </Table.Td>
      <Table.Td>
        <Flags field={field} />
      </Table.Td>
      {!isReadOnly && (
        <Table.Td>
          <Group gap={2} justify="flex-end" wrap="nowrap">
            <MoveEntryButtons name={field.label} index={index} count={count} onMove={onMove} />
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Edit ${field.label}`}
              onClick={() => onEdit({ field })}
            >
              <IconPencil size={16} />
            </ActionIcon>
            {field.locked ? (
              // Keeps the row's other actions in line with the rows that have this menu.
              <Box w={28} aria-hidden />
            ) : (
              <Menu position="bottom-end">
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" aria-label={`More for ${field.label}`}>
                    <IconDots size={16} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconForms size={15} />}
                    onClick={() => onEdit({ field, focus: 'key' })}
                  >
                    Rename key
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconPencil size={15} />}
                    onClick={() => onEdit({ field, focus: 'type' })}
                  >
                    Change type
                  </Menu.Item>
                  <Menu.Divider />
                  <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={onRemove}>
                    Remove {noun}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
