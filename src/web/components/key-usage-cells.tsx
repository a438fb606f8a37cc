import { Button, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { formatDateTime, fromNow } from '@web/lib/dates';

/**
 * The last cells of a row of secret keys (API keys, write keys, SCIM tokens): who made it and when,
 * its last use, and its Revoke button (`revokeLabel` names the key for screen readers).
 */
export function KeyUsageCells({
  usage,
  onRevoke,
  revokeLabel,
}: {
  usage: { createdBy: string; createdAt: string; lastUsedAt: string | null };
  onRevoke: () => void;
  revokeLabel?: string;
}) {
  return (
    <>
      <Table.Td>
        <Text size="sm">{usage.createdBy}</Text>
        <Text size="xs" c="dimmed" title={formatDateTime(usage.createdAt)}>
          {fromNow(usage.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={usage.lastUsedAt ? undefined : 'dimmed'}>
          {usage.lastUsedAt ? fromNow(usage.lastUsedAt) : 'Never'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={onRevoke}
          aria-label={revokeLabel}
        >
          Revoke
        </Button>
      </Table.Td>
    </>
  );
}
