import { Badge, Group, Progress, Stack, Table, Text } from '@mantine/core';
import type { Batch } from '@shared/api/workspaces';

const BATCH_STATUS_COLORS = {
  queued: 'gray',
  running: 'blue',
  done: 'teal',
  'done with errors': 'orange',
  failed: 'red',
} as const;

/** How far a batch has come, 0–100: by bytes read while running, full once finished. */
function batchPercent(batch: Batch) {
  if (batch.status !== 'running' && batch.status !== 'queued') return 100;
  if (batch.bytesTotal) return Math.min(99, (100 * batch.bytesRead) / batch.bytesTotal);
  return batch.total ? (100 * (batch.processed + batch.failed)) / batch.total : 0;
}

/** A batch's status, progress bar and counts (the settings batches page and the import dialog). */
export function BatchProgress({ batch }: { batch: Batch }) {
  const isRunning = batch.status === 'running' || batch.status === 'queued';
  return (
    <Stack gap={4} data-testid="batch-progress" data-status={batch.status}>
      <Group gap="xs">
        <Badge color={BATCH_STATUS_COLORS[batch.status]} variant="light">
          {batch.status}
        </Badge>
        <Text size="xs" c="dimmed">
          {batch.processed} processed{batch.failed ? `, ${batch.failed} failed` : ''}
        </Text>
      </Group>
      <Progress
        value={batchPercent(batch)}
        size="sm"
        animated={isRunning}
        striped={isRunning}
        color={batch.status === 'failed' ? 'red' : undefined}
        aria-label="Batch progress"
      />
    </Stack>
  );
}

/** The first row errors a batch kept: line number and message. */
export function BatchErrors({ batch }: { batch: Batch }) {
  if (!batch.errors.length) return null;
  return (
    <Table withTableBorder fz="xs" verticalSpacing={4} data-testid="batch-errors">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={60}>Line</Table.Th>
          <Table.Th>Error</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {batch.errors.map((error, index) => (
          <Table.Tr key={index}>
            <Table.Td>{error.line}</Table.Td>
            <Table.Td>{error.message}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
