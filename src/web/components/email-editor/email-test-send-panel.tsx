import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconSend } from '@tabler/icons-react';
import { EMAIL_MESSAGES, type ItemTestSendBody, type TestSendProvider } from '@shared/api/email';
import { splitEmailList } from '@shared/schemas/marketing';
import { useCanCustomerData } from '@web/lib/workspace';
import { useEmailPreview } from './api/get-email-preview';
import { useTestSends } from './api/list-test-sends';
import { useSendTest } from './api/send-test';
import { RecentTestSends } from './recent-test-sends';
import { TestSendOutcome } from './test-send-outcome';

const PROVIDERS: { value: TestSendProvider; label: string }[] = [
  { value: 'smtp', label: 'Mail server (SMTP or outbox)' },
  { value: 'sendgrid', label: 'SendGrid' },
];

/** The provider, the profile whose values fill the merge tags (members who may read them), and Send test. */
function TestSendControls({
  workspaceId,
  hasAddresses,
  sending,
  onSend,
}: {
  workspaceId: string;
  hasAddresses: boolean;
  sending: boolean;
  onSend: (body: ItemTestSendBody) => void;
}) {
  const [provider, setProvider] = useState<TestSendProvider>('smtp');
  const [profileId, setProfileId] = useState('');
  const canReadProfiles = useCanCustomerData(workspaceId, 'read');
  return (
    <Group gap="xs">
      <Select
        aria-label="Email delivery provider"
        data={PROVIDERS}
        value={provider}
        allowDeselect={false}
        onChange={(next) => next && setProvider(next as TestSendProvider)}
        w={240}
      />
      {canReadProfiles && (
        <TextInput
          aria-label="Customer profile id for the merge tags"
          placeholder="Profile id (optional)"
          value={profileId}
          onChange={(event) => setProfileId(event.currentTarget.value)}
          w={200}
        />
      )}
      <Button
        leftSection={<IconSend size={16} />}
        loading={sending}
        disabled={!hasAddresses}
        onClick={() =>
          onSend({
            provider,
            ...(canReadProfiles && profileId.trim() ? { profileId: profileId.trim() } : {}),
          })
        }
      >
        Send test
      </Button>
    </Group>
  );
}

/** Before sending: the saved email's HTML is over Gmail's 102 KB, so Gmail would clip it. */
function ClippedWarning({ htmlBytes }: { htmlBytes: number }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      data-testid="email-size-warning"
    >
      {EMAIL_MESSAGES.clipped(htmlBytes)}
    </Alert>
  );
}

/**
 * The email item screen's test send: 'Send test' sends the saved email to the item's test
 * addresses and answers 'Test sent to …' or the provider's error; before that, a warning when Gmail
 * would clip the message (the server measures the HTML it sends); below, the recent test sends.
 */
export function EmailTestSendPanel({
  workspaceId,
  itemId,
  version,
  testAddresses,
  canSend,
}: {
  workspaceId: string;
  itemId: string;
  version?: number;
  testAddresses: unknown;
  canSend: boolean;
}) {
  const sends = useTestSends(workspaceId, itemId);
  const send = useSendTest(workspaceId, itemId);
  const preview = useEmailPreview(workspaceId, itemId, version);
  const addresses = splitEmailList(typeof testAddresses === 'string' ? testAddresses : '');
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md" data-testid="email-test-send">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3} size="h5">
              Test send
            </Title>
            <Text size="sm" c="dimmed">
              {addresses.length
                ? `Sends the saved version to ${addresses.join(', ')}`
                : 'Add test addresses to the email to send it a test.'}
            </Text>
          </div>
          {canSend && (
            <TestSendControls
              workspaceId={workspaceId}
              hasAddresses={addresses.length > 0}
              sending={send.isPending}
              onSend={(body) => send.mutate(body)}
            />
          )}
        </Group>
        {preview.data?.clipped && <ClippedWarning htmlBytes={preview.data.htmlBytes} />}
        <TestSendOutcome send={send} />
        {sends.data && sends.data.testSends.length > 0 && (
          <RecentTestSends testSends={sends.data.testSends} />
        )}
      </Stack>
    </Paper>
  );
}
