import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { TestSendProvider } from '@shared/api/email';
import { splitEmailList } from '@shared/schemas/marketing';
import { errorMessage } from '@web/lib/api-client';
import { SettingHintForCaller, settingOf } from '../setting-hint';

/** Who can switch the provider on, when the refusal was 'Service not configured'. */
function TestSendSetting({ error }: { error: unknown }) {
  const setting = settingOf(error);
  return setting ? <SettingHintForCaller setting={setting} /> : null;
}
import { formatDateTime } from '@web/lib/dates';
import { useTestSends } from './api/list-test-sends';
import { useSendTest } from './api/send-test';

const PROVIDERS: { value: TestSendProvider; label: string }[] = [
  { value: 'smtp', label: 'Mail server (SMTP or outbox)' },
  { value: 'sendgrid', label: 'SendGrid' },
];

const STATUS_COLORS: Record<string, string> = { sent: 'teal', failed: 'red', sending: 'gray' };

/**
 * The email item screen's test send: 'Send test' sends the saved email to the item's test
 * addresses and answers 'Test sent to …' or the provider's error; below, the recent test sends.
 */
export function EmailTestSendPanel({
  workspaceId,
  itemId,
  testAddresses,
  canSend,
}: {
  workspaceId: string;
  itemId: string;
  testAddresses: unknown;
  canSend: boolean;
}) {
  const sends = useTestSends(workspaceId, itemId);
  const send = useSendTest(workspaceId, itemId);
  const [provider, setProvider] = useState<TestSendProvider>('smtp');
  const [profileId, setProfileId] = useState('');
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
            <Group gap="xs">
              <Select
                aria-label="Email delivery provider"
                data={PROVIDERS}
                value={provider}
                allowDeselect={false}
                onChange={(next) => next && setProvider(next as TestSendProvider)}
                w={240}
              />
              <TextInput
                aria-label="Customer profile id for the merge tags"
                placeholder="Profile id (optional)"
                value={profileId}
                onChange={(event) => setProfileId(event.currentTarget.value)}
                w={200}
              />
              <Button
                leftSection={<IconSend size={16} />}
                loading={send.isPending}
                disabled={addresses.length === 0}
                onClick={() =>
                  send.mutate({ provider, ...(profileId.trim() ? { profileId: profileId.trim() } : {}) })
                }
              >
                Send test
              </Button>
            </Group>
          )}
        </Group>
        {send.isSuccess && (
          <Alert color="teal" variant="light" role="status" withCloseButton onClose={() => send.reset()}>
            {send.data.message}
          </Alert>
        )}
        {send.isError && (
          <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => send.reset()}>
            {errorMessage(send.error)}
            <TestSendSetting error={send.error} />
          </Alert>
        )}
        {sends.data && sends.data.testSends.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing={6} fz="sm" aria-label="Recent test sends">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>By</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sends.data.testSends.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{formatDateTime(row.at)}</Table.Td>
                    <Table.Td>{row.byName}</Table.Td>
                    <Table.Td>{row.recipients.join(', ')}</Table.Td>
                    <Table.Td>{row.provider}</Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLORS[row.status] ?? 'gray'}>
                        {row.status}
                      </Badge>
                      {row.error && (
                        <Text size="xs" c="red">
                          {row.error}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
