import { Badge, Group, Text } from '@mantine/core';
import type { CampaignStatus } from '@shared/api/campaigns';
import { formatDateTime } from '@web/lib/dates';
import { useCampaignStatuses } from './api/get-statuses';
import { formatCount } from './format';

const STATUS_COLORS: Record<CampaignStatus['status'], string> = {
  draft: 'gray',
  scheduled: 'violet',
  sending: 'blue',
  testing: 'orange',
  sent: 'teal',
};

/** What the badge's line says beside it: the send time, or sent of recipients over the sends. */
function statusDetail(status: CampaignStatus) {
  if (status.status === 'draft') return null;
  if (status.status === 'scheduled' && status.sendAt && status.sent === 0)
    return formatDateTime(status.sendAt);
  const sends = status.sends > 1 ? ` over ${formatCount(status.sends)} sends` : '';
  const unconfirmed = status.unconfirmed ? `, ${formatCount(status.unconfirmed)} unconfirmed` : '';
  const counts = `${formatCount(status.sent)} of ${formatCount(status.recipients)} sent${unconfirmed}${sends}`;
  if (status.status === 'testing' && status.decideAt)
    return `${counts}; winner picked ${formatDateTime(status.decideAt)}`;
  return counts;
}

/** A campaign's status in a list: draft, scheduled, sending, testing or sent, with its counts. */
export function CampaignStatusBadge({
  workspaceId,
  campaignId,
}: {
  workspaceId: string;
  campaignId: string;
}) {
  const statuses = useCampaignStatuses(workspaceId);
  if (!statuses.data) return null;
  const status = statuses.data.statuses.find((each) => each.campaignId === campaignId) ?? {
    campaignId,
    status: 'draft' as const,
    sendAt: null,
    decideAt: null,
    recipients: 0,
    sent: 0,
    unconfirmed: 0,
    sends: 0,
  };
  const detail = statusDetail(status);
  return (
    <Group gap={6} wrap="nowrap" data-testid="campaign-status">
      <Badge size="sm" variant="light" color={STATUS_COLORS[status.status]} style={{ flexShrink: 0 }}>
        {status.status}
      </Badge>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Group>
  );
}
