import { Anchor, Badge, Group, List, Progress, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { Batch, BatchErrorGroup } from '@shared/api/workspaces';

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

const count = (n: number) => n.toLocaleString('en');

/**
 * What a batch did with its rows: `20,000 processed, 3 failed`, and when some were duplicates, how
 * many of those processed were stored and how many skipped.
 */
function batchCountsText(batch: Batch) {
  const failed = batch.failed ? `, ${count(batch.failed)} failed` : '';
  if (!batch.duplicates) return `${count(batch.processed)} processed${failed}`;
  const skipped = `${count(batch.duplicates)} ${batch.duplicates === 1 ? 'duplicate' : 'duplicates'} skipped`;
  return `${count(batch.processed)} processed: ${count(batch.stored)} stored, ${skipped}${failed}`;
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
        <Text size="xs" c="dimmed" data-testid="batch-counts">
          {batchCountsText(batch)}
        </Text>
      </Group>
      <Progress
        value={batchPercent(batch)}
        size="sm"
        animated={isRunning}
        striped={isRunning}
        color={batch.status === 'failed' ? 'red' : batch.status === 'done with errors' ? 'orange' : undefined}
        aria-label="Batch progress"
      />
    </Stack>
  );
}

/** `1,000 rows: 2, 3, 4 …` (line 0 is the file itself: an import that stopped). */
function groupLine(group: BatchErrorGroup) {
  const rows = `${group.count.toLocaleString('en')} ${group.count === 1 ? 'row' : 'rows'}`;
  const lines = group.lines.map((line) => (line === 0 ? 'the file' : String(line))).join(', ');
  return `${rows}: ${lines}${group.count > group.lines.length ? ' …' : ''}`;
}

/**
 * A batch's row errors grouped by message, with the first lines of each, and a download of all of
 * them as CSV: never thousands of lines on the page.
 */
export function BatchErrors({ ws, batch }: { ws: string; batch: Batch }) {
  if (!batch.errorGroups.length) return null;
  const hidden = batch.errorKinds - batch.errorGroups.length;
  const href = `/api/v1/workspaces/${encodeURIComponent(ws)}/batches/${encodeURIComponent(batch.id)}/errors.csv`;
  return (
    <Stack gap={4} data-testid="batch-errors">
      <List size="xs" spacing={2} listStyleType="none" pl={0}>
        {batch.errorGroups.map((group) => (
          <List.Item key={group.message}>
            <Text span size="xs" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {group.message}
            </Text>
            <Text span size="xs" c="dimmed">
              {' — '}
              {groupLine(group)}
            </Text>
          </List.Item>
        ))}
      </List>
      {hidden > 0 && (
        <Text size="xs" c="dimmed">
          and {hidden.toLocaleString('en')} other {hidden === 1 ? 'message' : 'messages'}
        </Text>
      )}
      <Anchor href={href} download size="xs" w="fit-content">
        <Group gap={4}>
          <IconDownload size={14} aria-hidden />
          Download all {batch.failed.toLocaleString('en')} row {batch.failed === 1 ? 'error' : 'errors'} (CSV)
        </Group>
      </Anchor>
    </Stack>
  );
}
