import { Badge, CloseButton, Group, Tooltip } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import { dayjs } from '@shared/time/dayjs';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';
import { useCancelSchedule, useSchedules } from '../api/schedules';

/** The item's pending schedules as chips ('Publish to Live at …'), with Cancel for publishers. */
export function ScheduleChips({
  ws,
  item,
  stageLabel,
  zone,
}: {
  ws: string;
  item: Pick<Item, 'id' | 'schema' | 'abilities'>;
  stageLabel: (stage: string) => string;
  /** Times are shown in this zone (the workspace's first), named. */
  zone?: string;
}) {
  const { data } = useSchedules(ws, item.schema, item.id);
  const cancel = useCancelSchedule(ws, item.schema, item.id);
  const pending = (data?.schedules ?? []).filter((s) => s.status === 'pending' || s.status === 'running');
  const refused = (data?.schedules ?? []).filter((s) => s.status === 'refused').slice(0, 1);
  if (pending.length === 0 && refused.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap">
      {pending.map((s) => (
        <Badge
          key={s.id}
          color="violet"
          variant="light"
          tt="none"
          leftSection={<IconCalendarTime size={12} />}
          data-testid="schedule-chip"
          rightSection={
            item.abilities.canPublish ? (
              <CloseButton
                size="xs"
                aria-label="Cancel this schedule"
                onClick={() => cancel.mutate(s.id)}
                disabled={cancel.isPending}
              />
            ) : undefined
          }
        >
          {s.action === 'publish' ? 'Publish to' : 'Unpublish from'} {stageLabel(s.stage)}{' '}
          {zone
            ? `${dayjs(s.at).tz(zone).format(DATE_DISPLAY_FORMAT)} (${zone})`
            : dayjs(s.at).format(DATE_DISPLAY_FORMAT)}
        </Badge>
      ))}
      {refused.map((s) => (
        <Tooltip key={s.id} label={s.reason ?? ''} multiline w={280}>
          <Badge color="red" variant="light" tt="none" leftSection={<IconCalendarTime size={12} />}>
            Scheduled {s.action} refused
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
