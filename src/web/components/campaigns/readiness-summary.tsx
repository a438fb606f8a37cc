import { Alert, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import type { CampaignReadiness } from '@shared/api/campaigns';
import { formatCount, reachText } from './format';
import { RecipientRules } from './recipient-rules';

/**
 * Why some of the audience would not get the message: suppressed, unsubscribed, consent unknown,
 * without an address (in the attribute addresses are read from).
 */
function leftOutText({
  suppressed,
  unsubscribed,
  unknownConsent,
  withoutEmail,
  emailAttribute,
}: CampaignReadiness) {
  const parts = [
    suppressed && `${formatCount(suppressed)} suppressed`,
    unsubscribed && `${formatCount(unsubscribed)} unsubscribed`,
    unknownConsent && `${formatCount(unknownConsent)} whose consent is unknown`,
    withoutEmail && `${formatCount(withoutEmail)} without an email address in “${emailAttribute}”`,
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
export function ReadinessSummary({
  workspaceId,
  readiness,
}: {
  workspaceId: string;
  readiness: CampaignReadiness;
}) {
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
      <RecipientRules workspaceId={workspaceId} readiness={readiness} />
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
