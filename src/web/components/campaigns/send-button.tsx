import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCalendarTime, IconSend } from '@tabler/icons-react';
import { CAMPAIGN_MESSAGES, type CampaignReadiness } from '@shared/api/campaigns';
import { formatInZone } from '@shared/time/format';
import { formatCount, reachText, recipientsText } from './format';

export const NO_PUBLISH_RIGHTS = 'Sending a campaign needs publish rights on campaigns';
const NO_RECIPIENTS = 'Nobody in the audience can receive it now';

/** Why the caller cannot send now, or null when nothing stops it. */
function sendBlocker(readiness: CampaignReadiness): string | null {
  if (!readiness.canSend) return NO_PUBLISH_RIGHTS;
  if (!readiness.approved) return CAMPAIGN_MESSAGES.needsApproval;
  if (readiness.problems.length > 0) return readiness.problems[0];
  if (readiness.recipients + readiness.alreadyReceived === 0) return NO_RECIPIENTS;
  return null;
}

/** The campaign's send time, when it is still ahead. */
export interface Schedule {
  at: string;
  zone: string;
}

/** The zone the campaign's send time is shown in: its own, or UTC. */
export const campaignZone = (zone: unknown) => (typeof zone === 'string' && zone ? zone : 'UTC');

export function futureSchedule(sendAt: unknown, zone: unknown, now = Date.now()): Schedule | null {
  if (typeof sendAt !== 'string' || !sendAt) return null;
  const at = Date.parse(sendAt);
  if (Number.isNaN(at) || at <= now) return null;
  return { at: sendAt, zone: campaignZone(zone) };
}

const scheduleText = (schedule: Schedule) => formatInZone(schedule.at, schedule.zone);

export const SEND_AGAIN = 'Send again to everyone';

/** What the confirmation says of those an earlier send reached, and the button that includes them. */
function AlreadyReceived({
  readiness,
  onEveryone,
}: {
  readiness: CampaignReadiness;
  onEveryone: () => void;
}) {
  const { alreadyReceived, recipients } = readiness;
  const everyone = recipientsText(alreadyReceived + recipients);
  return (
    <Stack gap="xs" align="flex-start" data-testid="already-received-confirm">
      <Text size="sm">
        {formatCount(alreadyReceived)} {alreadyReceived === 1 ? 'person' : 'people'} in the audience already
        got this campaign in an earlier send:{' '}
        {recipients > 0 ? `it goes only to the ${reachText(readiness)}.` : 'nobody new would get it.'}
      </Text>
      <Button size="xs" variant="light" color="orange" onClick={onEveryone}>
        {SEND_AGAIN}
      </Button>
      <Text size="xs" c="dimmed">
        {`${SEND_AGAIN} sends it to all ${everyone}: ${formatCount(alreadyReceived)} of them get it a second time.`}
      </Text>
    </Stack>
  );
}

/**
 * Send to N recipients (or Schedule for the campaign's send time), each behind a confirmation; disabled
 * with the reason when the version is not approved, the caller may not publish, or something is missing.
 */
export function SendButton({
  readiness,
  schedule,
  isPending,
  onSend,
}: {
  readiness: CampaignReadiness;
  schedule: Schedule | null;
  isPending: boolean;
  onSend: (body: { now?: boolean; everyone?: boolean }) => void;
}) {
  const blocker = sendBlocker(readiness);
  const who = reachText(readiness);
  const confirmSend = (now: boolean) => {
    const body = now ? { now: true } : {};
    const modalId = modals.openConfirmModal({
      title: schedule && !now ? `Schedule for ${scheduleText(schedule)}?` : `Send to ${who}?`,
      children: (
        <Stack gap="sm">
          <Text size="sm">
            {schedule && !now
              ? `The campaign goes to its audience at ${scheduleText(schedule)}: ${who} as of now; the audience is taken again then.`
              : `The campaign goes to ${who} now. This cannot be undone, though a send can be paused or cancelled while it runs.`}
          </Text>
          {readiness.alreadyReceived > 0 && (
            <AlreadyReceived
              readiness={readiness}
              onEveryone={() => {
                modals.close(modalId);
                onSend({ ...body, everyone: true });
              }}
            />
          )}
        </Stack>
      ),
      labels: { confirm: schedule && !now ? 'Schedule' : 'Send', cancel: 'Cancel' },
      confirmProps: { disabled: readiness.recipients === 0 },
      onConfirm: () => onSend(body),
    });
  };

  return (
    <Stack gap={4} align="flex-start">
      <Group gap="xs">
        {schedule ? (
          <Button
            leftSection={<IconCalendarTime size={16} />}
            disabled={!!blocker}
            loading={isPending}
            onClick={() => confirmSend(false)}
          >
            Schedule for {scheduleText(schedule)}
          </Button>
        ) : null}
        <Button
          variant={schedule ? 'default' : 'filled'}
          leftSection={<IconSend size={16} />}
          disabled={!!blocker}
          loading={isPending && !schedule}
          onClick={() => confirmSend(!!schedule)}
        >
          {schedule ? 'Send now' : `Send to ${who}`}
        </Button>
      </Group>
      {blocker && (
        <Text size="sm" c="dimmed" data-testid="send-blocker">
          {blocker}
        </Text>
      )}
    </Stack>
  );
}
