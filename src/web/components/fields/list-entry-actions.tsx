import { ActionIcon, Group } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';

/** Move up and Move down for an entry of an ordered list field; `name` says which entry to a screen reader. */
export function MoveEntryButtons({
  name,
  index,
  count,
  onMove,
}: {
  name: string;
  index: number;
  /** How many entries the list holds. */
  count: number;
  onMove: (direction: -1 | 1) => void;
}) {
  return (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <IconArrowUp size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <IconArrowDown size={16} />
      </ActionIcon>
    </>
  );
}

/** Move up, Move down and Remove for a row of a table or a list of combinations. */
export function RowEntryActions({
  name,
  onRemove,
  ...move
}: Parameters<typeof MoveEntryButtons>[0] & { onRemove: () => void }) {
  return (
    <Group gap={0} wrap="nowrap">
      <MoveEntryButtons name={name} {...move} />
      <ActionIcon variant="subtle" color="red" aria-label={`Remove ${name}`} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
