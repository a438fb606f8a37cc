import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { splitEmailList } from '@shared/schemas/marketing';
import { TestSendOutcome } from '../email-editor/test-send-outcome';
import { useCampaignTestSend } from './api/send-test';

/** The campaign's message to test addresses, filled as the profile the preview shows. */
export function CampaignTestSend({
  workspaceId,
  campaignId,
  profileId,
}: {
  workspaceId: string;
  campaignId: string;
  profileId: string | null;
}) {
  const [addresses, setAddresses] = useState('');
  const send = useCampaignTestSend(workspaceId, campaignId);
  const recipients = splitEmailList(addresses);
  const handleSend = () =>
    send.mutate({
      ...(recipients.length ? { recipients } : {}),
      ...(profileId ? { profileId } : {}),
    });
  return (
    <>
      <Group gap="xs" align="flex-end">
        <TextInput
          label="Test addresses"
          description="Comma-separated; empty: the email template's test addresses"
          placeholder="you@example.com"
          value={addresses}
          onChange={(event) => setAddresses(event.currentTarget.value)}
          style={{ flex: '1 1 260px' }}
          maw={420}
        />
        <Button
          variant="default"
          leftSection={<IconSend size={16} />}
          loading={send.isPending}
          onClick={handleSend}
        >
          Send test
        </Button>
      </Group>
      <TestSendOutcome send={send} />
    </>
  );
}
