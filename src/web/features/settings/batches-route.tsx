import { Badge, Card, EmptyState, Progress, Skeleton, Table, Text } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { FormError } from '@web/components/form-error';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useBatches } from './api/get-batches';

const STATE_COLORS = { queued: 'gray', running: 'blue', done: 'teal', failed: 'red' } as const;

/** /{workspace}/_settings/batches: the workspace's bulk jobs and their state. */
export default function BatchesRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useBatches(workspace.id);
  if (error) return <FormError error={error} />;
  if (isPending) return <Skeleton h={160} radius="md" />;

  if (!data.batches.length) {
    return (
      <Card p={48}>
        <EmptyState
          icon={<IconStack2 size={28} />}
          variant="light"
          title="No bulk jobs yet"
          description="Bulk uploads and other long-running jobs appear here with their progress."
        />
      </Card>
    );
  }

  return (
    <Card p={0}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Progress</Table.Th>
            <Table.Th>Started</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.batches.map((batch) => (
            <Table.Tr key={batch.id}>
              <Table.Td>
                <Text size="sm" fw={550}>
                  {batch.kind}
                </Text>
                <Text size="xs" c="dimmed">
                  by {batch.createdBy}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[batch.state]} variant="light">
                  {batch.state}
                </Badge>
              </Table.Td>
              <Table.Td miw={160}>
                <Progress value={batch.total ? (100 * batch.done) / batch.total : 0} size="sm" />
                <Text size="xs" c="dimmed" mt={4}>
                  {batch.done} of {batch.total} done{batch.failed ? `, ${batch.failed} failed` : ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" title={formatDateTime(batch.createdAt)}>
                  {fromNow(batch.createdAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
