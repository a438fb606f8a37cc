import { Card, EmptyState, Skeleton, Table, Text } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { BatchErrors, BatchProgress } from '@web/components/batch-progress';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { FormError } from '@web/components/form-error';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useBatches } from './api/get-batches';

const KIND_LABELS: Record<string, string> = {
  'profiles-import': 'Customer profiles import',
  'customer-events-import': 'Customer events import',
  'image-upload': 'Bulk image upload',
};

/** /{workspace}/_settings/batches: the workspace's bulk jobs, their progress and row errors. */
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
          description="Imports, bulk uploads and other long-running jobs appear here with their progress."
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
            <Table.Th>Progress</Table.Th>
            <Table.Th>Started</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.batches.map((batch) => (
            <Table.Tr key={batch.id} data-batch={batch.id}>
              <Table.Td valign="top">
                <Text size="sm" fw={550}>
                  {KIND_LABELS[batch.kind] ?? batch.kind}
                </Text>
                <Text size="xs" c="dimmed">
                  {batch.fileName ? `${batch.fileName} · ` : ''}by {batch.createdByName ?? batch.createdBy}
                </Text>
              </Table.Td>
              <Table.Td miw={260}>
                <BatchProgress batch={batch} />
                {batch.errors.length > 0 && (
                  <div style={{ marginTop: 8 }}>
                    <BatchErrors batch={batch} />
                  </div>
                )}
              </Table.Td>
              <Table.Td valign="top">
                <Text size="sm" title={formatDateTime(batch.startedAt)}>
                  {fromNow(batch.startedAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
