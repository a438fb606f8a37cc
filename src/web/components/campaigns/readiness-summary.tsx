import { Alert, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import type { CampaignReadiness } from '@shared/api/campaigns';
import { formatCount, reachText } from './format';

/** Why some of the audience would not get the message: suppressed, unsubscribed, without an email. */
function leftOutText({ suppressed, unsubscribed, withoutEmail }: CampaignReadiness) {
  const parts = [
    suppressed && `${formatCount(suppressed)} suppressed`,
    unsubscribed && `${formatCount(unsubscribed)} unsubscribed`,
    withoutEmail && `${formatCount(withoutEmail)} without an email address`,
  ].filter(Boolean);
  return parts.length ? `Left out: ${parts.join(', ')}` : 'Nobody in the audience is left out';
}

function Messages({ messages }: { messages: readonly string[] }) {
  return (
    <List size="sm" spacing={2}>
      {messages.map((message) => (
        <List.Item key={message}>{message}</List.Item>
      ))}
    </List>
  );
}

/** The audience's size now, whom a send would reach, and what stops or troubles a send. */
export function ReadinessSummary({ readiness }: { readiness: CampaignReadiness }) {
  return (
    <Stack gap="sm">
      <Group gap="xl" align="flex-start">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Audience now
          </Text>
          <Text fz="xl" fw={700} data-testid="audience-size">
            {formatCount(readiness.audienceSize)}
          </Text>
        </div>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Reach
          </Text>
          <Text fw={600} data-testid="will-reach">
            Will go to {reachText(readiness)}
          </Text>
          {readiness.alreadyReceived > 0 && (
            <Text size="sm" c="dimmed" data-testid="already-received">
              {formatCount(readiness.alreadyReceived)} got it in an earlier send
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {leftOutText(readiness)}
          </Text>
        </div>
      </Group>
      {readiness.problems.length > 0 && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title="Before it can be sent"
          data-testid="campaign-problems"
        >
          <Messages messages={readiness.problems} />
        </Alert>
      )}
      {readiness.warnings.length > 0 && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          data-testid="campaign-warnings"
        >
          <Messages messages={readiness.warnings} />
        </Alert>
      )}
    </Stack>
  );
}
