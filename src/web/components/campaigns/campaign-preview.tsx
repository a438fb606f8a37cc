import { useState } from 'react';
import { Alert, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { EMAIL_MESSAGES } from '@shared/api/email';
import { errorMessage } from '@web/lib/api-client';
import { DeviceToggle, EmailDocumentFrame, type PreviewDevice } from '../email-editor/email-preview';
import { useCampaignPreview } from './api/get-preview';

/**
 * The message as the chosen profile would get it (the campaign's version, merge tags filled by the
 * server): its subject, and the document in a frame that runs no script, at desktop or phone width.
 */
export function CampaignPreview({
  workspaceId,
  campaignId,
  version,
  profileId,
}: {
  workspaceId: string;
  campaignId: string;
  version: number;
  profileId: string | null;
}) {
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const preview = useCampaignPreview(workspaceId, campaignId, version, profileId);
  if (preview.error)
    return (
      <Text size="sm" c="dimmed" data-testid="campaign-preview-error">
        {errorMessage(preview.error)}
      </Text>
    );
  if (!preview.data) return <Skeleton h={320} radius="md" />;
  const { subject, html, clipped, htmlBytes } = preview.data;
  return (
    <Stack gap="xs" data-testid="campaign-preview">
      <Group justify="space-between" gap="xs" align="flex-start">
        <Text size="sm" style={{ flex: '1 1 240px', minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text span c="dimmed">
            Subject:{' '}
          </Text>
          <Text span fw={600} data-testid="campaign-preview-subject">
            {subject}
          </Text>
        </Text>
        <DeviceToggle value={device} onChange={setDevice} />
      </Group>
      {clipped && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          {EMAIL_MESSAGES.clipped(htmlBytes)}
        </Alert>
      )}
      <EmailDocumentFrame
        title="Campaign message preview"
        document={html}
        device={device}
        height={520}
        isStale={preview.isPlaceholderData}
      />
    </Stack>
  );
}
