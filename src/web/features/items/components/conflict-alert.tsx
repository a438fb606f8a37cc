import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

/** A save based on a stale version was refused (409): nothing was overwritten; reloading shows the newer version. */
export function ItemConflictAlert({ onReload }: { onReload: () => void }) {
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="This item changed while you were editing"
      role="alert"
      data-testid="conflict-alert"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          Nothing was overwritten. Reloading shows their version and discards your unsaved changes.
        </Text>
        <Button size="xs" color="orange" leftSection={<IconRefresh size={14} />} onClick={onReload}>
          Reload the latest version
        </Button>
      </Group>
    </Alert>
  );
}
