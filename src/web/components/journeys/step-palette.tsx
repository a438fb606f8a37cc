import { Button, Group, Text } from '@mantine/core';
import { IconLayoutDistributeHorizontal } from '@tabler/icons-react';
import { STEP_KINDS } from './step-kinds';

/**
 * Adds a step of each kind: after the selected step's first open exit, if one is selected. Arrange lays
 * every step out again.
 */
export function StepPalette({ onAdd, onArrange }: { onAdd: (kind: string) => void; onArrange: () => void }) {
  return (
    <Group gap={6} role="toolbar" aria-label="Add a step">
      <Text size="xs" fw={500} c="dimmed">
        Add
      </Text>
      {Object.entries(STEP_KINDS).map(([kind, { title, icon: KindIcon }]) => (
        <Button
          key={kind}
          size="compact-xs"
          variant="default"
          leftSection={<KindIcon size={14} aria-hidden />}
          onClick={() => onAdd(kind)}
        >
          {title}
        </Button>
      ))}
      <Button
        size="compact-xs"
        variant="subtle"
        ml="auto"
        leftSection={<IconLayoutDistributeHorizontal size={14} aria-hidden />}
        onClick={onArrange}
      >
        Arrange
      </Button>
    </Group>
  );
}
