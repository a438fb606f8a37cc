import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { AUDIT_ACTIONS, type AuditEntry } from '@shared/api/delivery';
import { FormError } from '@web/components/form-error';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useAudit, type AuditFilters } from './api/get-audit';
import { useAuditMembers } from './api/get-audit-members';

/** A date input's day as the start of that day in the browser's zone, ISO. */
const dayStart = (day: string, plusDays = 0) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

/** /{workspace}/_settings/audit: who did what to which item, role, member, key or webhook, newest first. */
export default function AuditRoute() {
  const workspace = useCurrentWorkspace();
  const members = useAuditMembers(workspace.id);
  const [user, setUser] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const filters: AuditFilters = {
    user: user ?? undefined,
    action: action ?? undefined,
    from: dayStart(fromDay),
    to: dayStart(toDay, 1),
  };
  const audit = useAudit(workspace.id, filters);
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  const userOptions = (members.data?.members ?? []).map((m) => ({ value: m.userId, label: m.displayName }));

  return (
    <Stack gap="lg">
      <Card p="md">
        <Group grow align="flex-end">
          <Select
            label="User"
            placeholder="Anyone"
            data={userOptions}
            value={user}
            onChange={setUser}
            clearable
            searchable
          />
          <Select
            label="Action"
            placeholder="Any action"
            data={[...AUDIT_ACTIONS]}
            value={action}
            onChange={setAction}
            clearable
            searchable
          />
          <TextInput
            label="From"
            type="date"
            value={fromDay}
            onChange={(e) => setFromDay(e.currentTarget.value)}
          />
          <TextInput label="To" type="date" value={toDay} onChange={(e) => setToDay(e.currentTarget.value)} />
        </Group>
      </Card>
      <FormError error={audit.error} />
      {audit.isPending ? (
        <Skeleton h={200} radius="md" />
      ) : entries.length === 0 ? (
        <Card p={48}>
          <EmptyState
            icon={<IconHistory size={28} />}
            variant="light"
            title="Nothing recorded"
            description="Changes to items, roles, members, API keys and webhooks appear here."
          />
        </Card>
      ) : (
        <Card p={0}>
          <Table verticalSpacing="xs" horizontalSpacing="md" aria-label="Audit log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {audit.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => audit.fetchNextPage()} loading={audit.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const detail = entry.detail ? Object.entries(entry.detail) : [];
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" title={formatDateTime(entry.at)}>
          {fromNow(entry.at)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entry.userName}</Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" tt="none">
          {entry.action}
        </Badge>
      </Table.Td>
      <Table.Td maw={360}>
        <Text size="sm">
          {entry.targetType} {entry.label && <strong>{entry.label} </strong>}
          {entry.schema ? `${entry.schema}/` : ''}
          <Code>{entry.targetId}</Code>
        </Text>
        {detail.length > 0 && (
          <Text size="xs" c="dimmed" truncate="end" title={JSON.stringify(entry.detail)}>
            {detail.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' · ')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {entry.address ?? '—'}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
