import type { ReactNode } from 'react';
import { ActionIcon, Button, Group } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';

/** Rows of inputs (a select's options, a field's validators), each with Remove, and Add below them. */
export function InputRows({
  count,
  noun,
  isDisabled = false,
  renderRow,
  onAdd,
  onRemove,
}: {
  count: number;
  /** What a row is, for the buttons: 'option' gives 'Add option' and 'Remove option 2'. */
  noun: string;
  isDisabled?: boolean;
  renderRow: (index: number) => ReactNode;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          {renderRow(index)}
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove ${noun} ${index + 1}`}
            disabled={isDisabled}
            onClick={() => onRemove(index)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <div>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={isDisabled}
          onClick={onAdd}
        >
          Add {noun}
        </Button>
      </div>
    </>
  );
}
