import { Badge, Group } from '@mantine/core';
import { IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Roles } from '@shared/permissions/permissions';
import { approvalChips, publishChips } from '../item-labels';
import { publishPath } from '@web/lib/item-paths';

interface ChipsProps {
  item: Pick<Item, 'id' | 'schema' | 'publishStatus'>;
  ws: string;
  domain: string;
  stages: readonly string[];
  /** Lists show only stages holding a copy; the item screen shows every stage. */
  publishedOnly?: boolean;
}

/** Publishing chips per stage (spec §4): MODIFIED in the warning colour, CURRENT positive; both open the publish screen. */
export function PublishChips({ item, ws, domain, stages, publishedOnly = false }: ChipsProps) {
  const chips = publishChips(item.publishStatus, stages, { publishedOnly });
  if (!chips.length) return null;
  return (
    <Group gap={6} wrap="wrap">
      {chips.map((chip) =>
        chip.clickable ? (
          <Badge
            key={chip.stage}
            component={Link}
            to={publishPath(ws, domain, item.schema, item.id, chip.stage)}
            onClick={(event: React.MouseEvent) => event.stopPropagation()}
            color={chip.color}
            variant="light"
            tt="none"
            style={{ cursor: 'pointer' }}
            data-status={chip.status}
            data-testid={`publish-chip-${chip.stage}`}
            title={`Open the publish screen for ${chip.stageLabel}`}
          >
            {chip.label}
          </Badge>
        ) : (
          <Badge
            key={chip.stage}
            color={chip.color}
            variant="outline"
            tt="none"
            data-status={chip.status}
            data-testid={`publish-chip-${chip.stage}`}
          >
            {chip.label}
          </Badge>
        ),
      )}
    </Group>
  );
}

/** Approval chips: one per approver role of the current version. */
export function ApprovalChips({
  item,
  roles,
}: {
  item: Pick<Item, 'remainingApprovals' | 'approvedBy'>;
  roles: Roles;
}) {
  const chips = approvalChips(item, roles);
  if (!chips.length) return null;
  return (
    <Group gap={6} wrap="wrap">
      {chips.map((chip) => (
        <Badge
          key={chip.roleId}
          color={chip.approved ? 'teal' : 'yellow'}
          variant={chip.approved ? 'light' : 'outline'}
          tt="none"
          leftSection={chip.approved ? <IconCircleCheck size={12} /> : <IconClockHour4 size={12} />}
          data-testid={`approval-chip-${chip.roleId}`}
        >
          {chip.label}
        </Badge>
      ))}
    </Group>
  );
}
