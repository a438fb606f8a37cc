import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRestore } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import { errorMessage } from '@web/lib/api-client';
import { useRestoreVersion } from '../api/restore-version';
import { showToast } from '@web/lib/toast';

/** 'Restore this version': after a confirmation, saves that version's data as a new version. */
export function RestoreVersionButton({ ws, item, num }: { ws: string; item: Item; num: number }) {
  const restore = useRestoreVersion();
  if (!item.abilities.canEdit || num === item.version) return null;
  const handleClick = () =>
    modals.openConfirmModal({
      title: `Restore version ${num}?`,
      children: (
        <Text size="sm">
          Its data becomes version {item.version + 1}. Nothing is lost: the history keeps every version.
          Approvals start over.
        </Text>
      ),
      labels: { confirm: 'Restore', cancel: 'Cancel' },
      onConfirm: () =>
        restore.mutate(
          { ws, schema: item.schema, id: item.id, num, baseVersion: item.version },
          {
            onSuccess: (saved) =>
              showToast({
                color: 'teal',
                message: `Version ${num} restored as version ${saved.version}`,
              }),
            onError: (error) => showToast({ color: 'red', message: errorMessage(error) }),
          },
        ),
    });
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      leftSection={<IconRestore size={13} />}
      onClick={handleClick}
      loading={restore.isPending}
    >
      Restore this version
    </Button>
  );
}
