import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconMailOff, IconSearch, IconTrash } from '@tabler/icons-react';
import { SUPPRESSION_REASONS, type Suppression } from '@shared/api/customers';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useAddSuppression } from './api/add-suppression';
import { useSuppressions } from './api/list-suppressions';
import { useRemoveSuppression } from './api/remove-suppression';

const REASON_LABELS: Record<Suppression['reason'], string> = {
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
  erased: 'Erased',
  manual: 'Added by hand',
};

function AddCard({ ws }: { ws: string }) {
  const add = useAddSuppression(ws);
  const [profileId, setProfileId] = useState('');
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState<Suppression['reason']>('manual');
  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    add.mutate(
      {
        ...(profileId.trim() ? { profileId: profileId.trim() } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
        reason,
      },
      {
        onSuccess: () => {
          setProfileId('');
          setEmail('');
          showToast({ color: 'teal', message: 'Added to the suppression list' });
        },
      },
    );
  };
  return (
    <Card withBorder component="form" onSubmit={handleSubmit}>
      <Title order={2} fz="h4" mb="sm">
        Add an entry
      </Title>
      <Group align="flex-end">
        <TextInput
          label="Profile id"
          value={profileId}
          onChange={(e) => setProfileId(e.currentTarget.value)}
        />
        <TextInput label="Email address" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Select
          label="Reason"
          w={170}
          allowDeselect={false}
          data={SUPPRESSION_REASONS.map((value) => ({ value, label: REASON_LABELS[value] }))}
          value={reason}
          onChange={(value) => value && setReason(value as Suppression['reason'])}
        />
        <Button type="submit" loading={add.isPending} disabled={!profileId.trim() && !email.trim()}>
          Add
        </Button>
      </Group>
      <FormError error={add.error} />
    </Card>
  );
}

/**
 * /{workspace}/_settings/suppressions: profile ids and email addresses kept out of imports, tracking
 * and sends; managers add and remove entries by hand, every member may read.
 */
export default function SuppressionsRoute() {
  const workspace = useCurrentWorkspace();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const list = useSuppressions(workspace.id, debounced);
  const remove = useRemoveSuppression(workspace.id);
  const entries = list.data?.pages.flatMap((page) => page.suppressions) ?? [];
  const canManage = list.data?.pages[0]?.abilities.canManage ?? false;

  const handleRemove = (entry: Suppression) =>
    modals.openConfirmModal({
      title: 'Remove from the suppression list?',
      children: (
        <Text size="sm">
          {entry.profileId ?? entry.email} can then be imported, tracked and sent to again.
        </Text>
      ),
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(entry.id),
    });

  return (
    <Stack gap="lg">
      {canManage && <AddCard ws={workspace.id} />}
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Search by profile id or email"
        aria-label="Search the suppression list"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <FormError error={list.error ?? remove.error} />
      {list.isPending ? (
        <Skeleton h={140} />
      ) : entries.length === 0 ? (
        <Card p={48}>
          <EmptyState
            icon={<IconMailOff size={28} />}
            variant="light"
            title={debounced ? 'No entry matches' : 'The suppression list is empty'}
            description="Erased customers kept out, unsubscribes, bounces and complaints show here."
          />
        </Card>
      ) : (
        <Card p={0}>
          <Table verticalSpacing="xs" data-testid="suppressions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Profile id</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Added</Table.Th>
                {canManage && <Table.Th w={48} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{entry.profileId ?? '—'}</Table.Td>
                  <Table.Td>{entry.email ?? '—'}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={entry.reason === 'erased' ? 'red' : 'gray'}>
                      {REASON_LABELS[entry.reason]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{formatDateTime(entry.createdAt)}</Text>
                    {entry.createdByName && (
                      <Text size="xs" c="dimmed">
                        by {entry.createdByName}
                      </Text>
                    )}
                  </Table.Td>
                  {canManage && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${entry.profileId ?? entry.email}`}
                        onClick={() => handleRemove(entry)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {list.hasNextPage && (
        <Button variant="default" onClick={() => list.fetchNextPage()} loading={list.isFetchingNextPage}>
          Load More
        </Button>
      )}
    </Stack>
  );
}
