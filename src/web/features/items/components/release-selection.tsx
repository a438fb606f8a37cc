import { lazy, Suspense, useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';

// The release picker loads when the entries picked in a list are first added to a release.
const AddToReleaseDialog = lazy(() => import('@web/components/releases/add-to-release-dialog'));

const keyOf = (item: Pick<Item, 'schema' | 'id'>) => `${item.schema}/${item.id}`;

/**
 * Picking entries of a list for a release, offered to members who may publish something: each entry's
 * checkbox, the bar saying how many are picked, and the release picker it opens.
 */
export function useReleaseSelection(workspace: Workspace, isOffered: boolean) {
  const [selected, setSelected] = useState<ReadonlyMap<string, Item>>(new Map());
  const [isAdding, setAdding] = useState(false);
  const maySelect = isOffered && workspace.__permissions.canPublish.length > 0;
  const toggle = (item: Item) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(keyOf(item))) next.delete(keyOf(item));
      else next.set(keyOf(item), item);
      return next;
    });
  const clear = () => setSelected(new Map());
  return {
    of: (item: Item) => (maySelect ? { isSelected: selected.has(keyOf(item)), onToggle: toggle } : undefined),
    bar: selected.size > 0 && (
      <SelectionBar count={selected.size} onClear={clear} onAddToRelease={() => setAdding(true)} />
    ),
    dialog: isAdding && (
      <Suspense fallback={null}>
        <AddToReleaseDialog
          workspace={workspace}
          items={[...selected.values()].map((i) => ({ schema: i.schema, itemId: i.id, version: i.version }))}
          onAdded={clear}
          onClose={() => setAdding(false)}
        />
      </Suspense>
    ),
  };
}

/** What to do with the entries picked in a list: add them to a release, or clear the selection. */
function SelectionBar({
  count,
  onAddToRelease,
  onClear,
}: {
  count: number;
  onAddToRelease: () => void;
  onClear: () => void;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      px="md"
      py="xs"
      mb="sm"
      bg="var(--mantine-primary-color-light)"
      role="region"
      aria-label="Selection"
      data-testid="selection-bar"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={600}>
          {count} selected
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={onClear}>
            Clear selection
          </Button>
          <Button size="xs" leftSection={<IconPackage size={14} />} onClick={onAddToRelease}>
            Add to release
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
