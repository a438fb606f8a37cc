import { Badge, Tooltip } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useAudienceSizes } from './api';

/** An audience's size in item lists (one sizes request serves the whole list). */
export function AudienceSizeBadge({ ws, id }: { ws: string; id: string }) {
  const { data } = useAudienceSizes(ws);
  if (!data || !(id in data.sizes)) return null;
  const size = data.sizes[id];
  return (
    <Tooltip
      label={size === null ? 'The criteria are incomplete' : `${size} of ${data.profiles} profiles match now`}
    >
      <Badge
        variant="light"
        color={size === null ? 'gray' : 'teal'}
        size="sm"
        tt="none"
        leftSection={<IconUsers size={11} />}
        data-testid="audience-list-size"
      >
        {size === null ? '—' : size.toLocaleString()}
      </Badge>
    </Tooltip>
  );
}
