import { Text, Tooltip } from '@mantine/core';
import { formatDateTime, fromNow } from '@web/lib/dates';

/** "Updated 3 minutes ago by Eve Editor": relative unless the workspace's date format says otherwise. */
export function UpdatedBy({
  at,
  by,
  dateFormat,
  size = 'xs',
}: {
  at: string;
  by: string;
  dateFormat: string;
  size?: string;
}) {
  const when = dateFormat === 'relative' ? fromNow(at) : formatDateTime(at);
  return (
    <Tooltip label={formatDateTime(at)} openDelay={400}>
      <Text size={size} c="dimmed" span>
        Updated {when} by{' '}
        <Text span inherit fw={500} c="var(--mantine-color-text)">
          {by}
        </Text>
      </Text>
    </Tooltip>
  );
}
