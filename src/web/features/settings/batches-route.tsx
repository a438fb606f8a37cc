import { Card, EmptyState, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
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
  // On a phone each job is one cell: name, start and progress stacked.
  const isWide = useMediaQuery('(min-width: 48em)', true);
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
      <Table
        verticalSpacing="sm"
        horizontalSpacing="md"
        highlightOnHover
        layout={isWide ? undefined : 'fixed'}
        aria-label="Bulk jobs"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            {isWide && (
              <>
                <Table.Th>Progress</Table.Th>
                <Table.Th>Started</Table.Th>
              </>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.batches.map((batch) => {
            const progress = (
              <>
                <BatchProgress batch={batch} />
                {batch.errorGroups.length > 0 && (
                  <div style={{ marginTop: 8 }}>
                    <BatchErrors ws={workspace.id} batch={batch} />
                  </div>
                )}
              </>
            );
            const started = (
              <Text
                size={isWide ? 'sm' : 'xs'}
                c={isWide ? undefined : 'dimmed'}
                title={formatDateTime(batch.startedAt)}
              >
                {isWide ? '' : 'Started '}
                {fromNow(batch.startedAt)}
              </Text>
            );
            return (
              <Table.Tr key={batch.id} data-batch={batch.id}>
                <Table.Td valign="top">
                  <Text size="sm" fw={550}>
                    {KIND_LABELS[batch.kind] ?? batch.kind}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {batch.fileName ? `${batch.fileName} · ` : ''}by {batch.createdByName ?? batch.createdBy}
                  </Text>
                  {!isWide && (
                    <Stack gap={6} mt={6}>
                      {started}
                      {progress}
                    </Stack>
                  )}
                </Table.Td>
                {isWide && (
                  <>
                    <Table.Td miw={260}>{progress}</Table.Td>
                    <Table.Td valign="top">{started}</Table.Td>
                  </>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
