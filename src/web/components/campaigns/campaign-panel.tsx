import { useEffect, useState } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { CampaignReadiness, CampaignSend } from '@shared/api/campaigns';
import { FormError } from '../form-error';
import { showToast } from '@web/lib/toast';
import { useCanCustomerData } from '@web/lib/workspace';
import { campaignKeys } from './api/campaign-keys';
import { useControlSend } from './api/control-send';
import { useCampaignReadiness } from './api/get-readiness';
import { isActiveSend, useCampaignSend, useCampaignSends } from './api/get-sends';
import { useResendUnconfirmed } from './api/resend-unconfirmed';
import { useSendCampaign } from './api/send-campaign';
import { CampaignPreview } from './campaign-preview';
import { CampaignTestSend } from './campaign-test-send';
import { PastSends } from './past-sends';
import { ProfilePicker } from './profile-picker';
import { ReadinessSummary } from './readiness-summary';
import { campaignZone, futureSchedule, SendButton } from './send-button';
import { SendProgress } from './send-progress';
import { SendResults } from './send-results';

interface CampaignRef {
  workspaceId: string;
  campaignId: string;
}

function Section({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * The send under way, asked every second. When it stops moving, the readiness (no send under way any
 * more), the list of sends and the results are asked again.
 */
function useCurrentSend({ workspaceId, campaignId }: CampaignRef, current: CampaignSend | null) {
  const client = useQueryClient();
  const polled = useCampaignSend(workspaceId, campaignId, current?.id ?? null);
  const send = polled.data ?? current;
  const hasStopped = !!send && !isActiveSend(send.state);
  useEffect(() => {
    if (!hasStopped) return;
    void client.invalidateQueries({ queryKey: campaignKeys.all(workspaceId, campaignId) });
    void client.invalidateQueries({ queryKey: campaignKeys.lists(workspaceId) });
  }, [hasStopped, client, workspaceId, campaignId]);
  return send && !hasStopped ? send : null;
}

/** Who a send would reach, what stops it, and Send; or the send under way with its progress. */
function SendSection({
  campaign,
  readiness,
  sendAt,
  sendAtZone,
}: {
  campaign: CampaignRef;
  readiness: CampaignReadiness;
  sendAt: unknown;
  sendAtZone: unknown;
}) {
  const { workspaceId, campaignId } = campaign;
  const start = useSendCampaign(workspaceId, campaignId);
  const control = useControlSend(workspaceId, campaignId);
  const current = useCurrentSend(campaign, readiness.current);
  return (
    <Section title="Send" testId="campaign-send">
      <ReadinessSummary workspaceId={workspaceId} readiness={readiness} />
      <FormError error={start.error ?? control.error} />
      {current ? (
        <SendProgress
          send={current}
          zone={campaignZone(sendAtZone)}
          pendingAction={control.isPending ? control.variables.action : null}
          onAction={(action) => control.mutate({ sendId: current.id, action })}
        />
      ) : (
        <SendButton
          readiness={readiness}
          schedule={futureSchedule(sendAt, sendAtZone)}
          isPending={start.isPending}
          onSend={(body) =>
            start.mutate(body, {
              onSuccess: (answer) => showToast({ color: 'teal', message: answer.message }),
            })
          }
        />
      )}
    </Section>
  );
}

/** The message as a chosen profile gets it (members who may read customer data), and a test send of it. */
function PreviewSection({ campaign, version }: { campaign: CampaignRef; version: number }) {
  const [profileId, setProfileId] = useState<string | null>(null);
  const canPickProfile = useCanCustomerData(campaign.workspaceId, 'read');
  return (
    <Section title="Preview and test" testId="campaign-preview-section">
      {canPickProfile && (
        <ProfilePicker workspaceId={campaign.workspaceId} value={profileId} onChange={setProfileId} />
      )}
      <CampaignPreview {...campaign} version={version} profileId={profileId} />
      <CampaignTestSend {...campaign} profileId={profileId} />
    </Section>
  );
}

/**
 * The sends so far and the results of the one picked (the newest that started, at first); a finished
 * send's unconfirmed recipients can be resent by whoever may send.
 */
function ResultsSection({ campaign, canSend }: { campaign: CampaignRef; canSend: boolean }) {
  const sends = useCampaignSends(campaign.workspaceId, campaign.campaignId);
  const resend = useResendUnconfirmed(campaign.workspaceId, campaign.campaignId);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const started = (sends.data?.sends ?? []).filter((send) => send.startedAt !== null);
  const shownId = started.find((send) => send.id === chosenId)?.id ?? started[0]?.id ?? null;
  return (
    <Section title="Results" testId="campaign-results">
      <FormError error={sends.error ?? resend.error} />
      {sends.data && sends.data.sends.length === 0 && (
        <Text size="sm" c="dimmed">
          Not sent yet. Results show here once a send starts.
        </Text>
      )}
      {sends.data && sends.data.sends.length > 0 && (
        <PastSends
          sends={sends.data.sends}
          selectedId={shownId}
          onSelect={setChosenId}
          onResend={
            canSend
              ? (sendId) =>
                  resend.mutate(sendId, {
                    onSuccess: (answer) => showToast({ color: 'teal', message: answer.message }),
                  })
              : undefined
          }
        />
      )}
      {shownId && <SendResults {...campaign} sendId={shownId} />}
    </Section>
  );
}

/**
 * The campaign item screen's panel (below its form): the audience now and whom a send would reach,
 * the preview as a profile with a test send, Send (or the progress of the send under way), and the
 * results of each send.
 */
export function CampaignPanel({
  workspaceId,
  campaignId,
  version,
  approvals,
  sendAt,
  sendAtZone,
}: CampaignRef & {
  version: number;
  /** How many approvals the version has: one more may let it be sent. */
  approvals: number;
  sendAt: unknown;
  sendAtZone: unknown;
}) {
  const campaign = { workspaceId, campaignId };
  const readiness = useCampaignReadiness(workspaceId, campaignId, version, approvals);
  return (
    <Stack gap="md" data-testid="campaign-panel">
      {readiness.error ? (
        <FormError error={readiness.error} />
      ) : readiness.data ? (
        <SendSection campaign={campaign} readiness={readiness.data} sendAt={sendAt} sendAtZone={sendAtZone} />
      ) : (
        <Skeleton h={140} radius="md" />
      )}
      <PreviewSection campaign={campaign} version={version} />
      <ResultsSection campaign={campaign} canSend={readiness.data?.canSend ?? false} />
    </Stack>
  );
}
