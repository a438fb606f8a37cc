import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import type { CampaignSend, SendState } from '@shared/api/campaigns';
import { formatInZone } from '@shared/time/format';
import type { SendAction } from './api/control-send';
import { formatCount } from './format';

export const STATE_COLORS: Record<SendState, string> = {
  queued: 'gray',
  sending: 'blue',
  paused: 'orange',
  done: 'teal',
  cancelled: 'red',
};

/** The share of recipients handled (sent, failed or unconfirmed), 0 to 100. */
function sendPercent({ counts }: CampaignSend) {
  if (counts.recipients === 0) return 0;
  return Math.min(100, ((counts.sent + counts.failed + counts.unconfirmed) / counts.recipients) * 100);
}

function progressText(send: CampaignSend, zone: string) {
  const { recipients, sent, failed, unconfirmed } = send.counts;
  if (send.state === 'queued' && !send.snapshotAt)
    return Date.parse(send.sendAt) > Date.now()
      ? `Queued for ${formatInZone(send.sendAt, zone)}`
      : 'Starting…';
  const failedText = failed ? `, ${formatCount(failed)} failed` : '';
  const unconfirmedText = unconfirmed ? `, ${formatCount(unconfirmed)} unconfirmed` : '';
  return `${formatCount(sent)} of ${formatCount(recipients)} sent${failedText}${unconfirmedText}`;
}

/**
 * A send under way: how far it got (sent and failed of its recipients) with Pause, Resume and Cancel.
 * A queued send's time is shown in `zone`, the campaign's, as its Schedule button showed it. The panel
 * polls the send; this only draws it.
 */
export function SendProgress({
  send,
  zone,
  pendingAction,
  onAction,
}: {
  send: CampaignSend;
  zone: string;
  pendingAction: SendAction | null;
  onAction: (action: SendAction) => void;
}) {
  const percent = sendPercent(send);
  const confirmCancel = () =>
    modals.openConfirmModal({
      title: 'Cancel this send?',
      children: (
        <Text size="sm">
          Recipients not reached yet will not get the campaign. Those already sent to keep their message.
        </Text>
      ),
      labels: { confirm: 'Cancel send', cancel: 'Keep sending' },
      confirmProps: { color: 'red' },
      onConfirm: () => onAction('cancel'),
    });
  return (
    <Stack gap="xs" data-testid="send-progress">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Badge variant="light" color={STATE_COLORS[send.state]}>
            {send.state}
          </Badge>
          <Text size="sm" data-testid="send-progress-text">
            {progressText(send, zone)}
          </Text>
        </Group>
        <Group gap="xs">
          {send.state === 'paused' ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlayerPlay size={14} />}
              loading={pendingAction === 'resume'}
              onClick={() => onAction('resume')}
            >
              Resume
            </Button>
          ) : (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlayerPause size={14} />}
              loading={pendingAction === 'pause'}
              onClick={() => onAction('pause')}
            >
              Pause
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconX size={14} />}
            loading={pendingAction === 'cancel'}
            onClick={confirmCancel}
          >
            Cancel
          </Button>
        </Group>
      </Group>
      <Progress
        value={percent}
        size="lg"
        radius="sm"
        animated={send.state === 'sending'}
        striped={send.state === 'sending'}
        color={send.state === 'paused' ? 'orange' : 'blue'}
        aria-label="Send progress"
        data-testid="send-progress-bar"
      />
    </Stack>
  );
}
