import { ActionIcon, Group, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPhoto, IconTrash } from '@tabler/icons-react';
import { SizeDisplay } from '../fields/size-display';
import type { UploadRow } from './upload-rows';
import type { UploadTotals } from './upload-totals';

function PickedFileRow({ row, onRemove }: { row: UploadRow; onRemove: () => void }) {
  const done = row.status === 'uploaded' || row.status === 'saved';
  return (
    <Group gap="sm" wrap="nowrap" data-testid="picked-file" data-status={row.status}>
      {row.status === 'failed' ? (
        <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" style={{ flexShrink: 0 }} />
      ) : done ? (
        <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" style={{ flexShrink: 0 }} />
      ) : (
        <IconPhoto size={18} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
      )}
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" truncate>
            {row.file.name}
          </Text>
          <Text size="xs" c={row.status === 'failed' ? 'red' : 'dimmed'} style={{ flexShrink: 0 }}>
            {row.status === 'failed'
              ? 'Failed'
              : done
                ? 'Uploaded'
                : row.status === 'queued'
                  ? 'Waiting'
                  : `${row.percent}%`}
          </Text>
        </Group>
        {row.status === 'failed' ? (
          <Text size="xs" c="red" lineClamp={2}>
            {row.error}
          </Text>
        ) : (
          <Progress
            value={done ? 100 : row.percent}
            size="xs"
            color={done ? 'teal' : undefined}
            aria-label={`Upload of ${row.file.name}`}
          />
        )}
      </Stack>
      <SizeDisplay
        bytes={row.file.size}
        size="xs"
        c="dimmed"
        style={{ flexShrink: 0, width: 72, textAlign: 'right' }}
      />
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Remove ${row.file.name}`}
        onClick={onRemove}
      >
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}

/** The images picked in the upload dialog's first step, each with its upload progress. */
export function PickedFiles({
  rows,
  totals,
  onRemove,
}: {
  rows: readonly UploadRow[];
  totals: UploadTotals;
  onRemove: (key: string) => void;
}) {
  const { uploaded, failed, uploading, percent } = totals;
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={550}>
          {rows.length} image{rows.length === 1 ? '' : 's'}
        </Text>
        <Text size="xs" c="dimmed">
          {uploaded} uploaded{failed ? ` · ${failed} failed` : ''}
          {uploading ? ` · ${percent}%` : ''}
        </Text>
      </Group>
      <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
        <Stack gap={10} pr="xs">
          {rows.map((row) => (
            <PickedFileRow key={row.key} row={row} onRemove={() => onRemove(row.key)} />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
