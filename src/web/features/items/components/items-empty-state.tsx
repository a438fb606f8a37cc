import { Card, EmptyState } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';

/** Spec §2 item list: the empty message is 'None so far'. */
export function ItemsEmptyState({ description }: { description?: string }) {
  return (
    <Card p={56} radius="lg" data-testid="items-empty">
      <EmptyState
        icon={<IconInbox size={28} />}
        variant="light"
        title="None so far"
        description={description ?? 'Items created in this workspace will show up here.'}
      />
    </Card>
  );
}
