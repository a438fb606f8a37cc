import { useQuery } from '@tanstack/react-query';
import { CampaignSend, CampaignSends, type SendState } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, campaignPath, sendPath } from './campaign-keys';

/** How often a send under way is asked for its progress. */
const SEND_POLL_MS = 1000;
/** How often a send that waits (paused, or queued for a later time) is asked whether it moved. */
const WAITING_POLL_MS = 15_000;

/** A send still moving, or waiting to: its counts can change. */
export const isActiveSend = (state: SendState) =>
  state === 'queued' || state === 'sending' || state === 'paused';

/** GET …/campaigns/{id}/sends: the campaign's sends, newest first. */
export const useCampaignSends = (workspaceId: string, campaignId: string) =>
  useQuery({
    queryKey: campaignKeys.sends(workspaceId, campaignId),
    queryFn: ({ signal }) =>
      apiRequest(`${campaignPath(workspaceId, campaignId)}/sends`, { schema: CampaignSends, signal }),
  });

/** GET …/campaigns/{id}/sends/{sendId}: one send, asked again every second while it is under way. */
export const useCampaignSend = (workspaceId: string, campaignId: string, sendId: string | null) =>
  useQuery({
    queryKey: campaignKeys.send(workspaceId, campaignId, sendId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(sendPath(workspaceId, campaignId, sendId!), { schema: CampaignSend, signal }),
    enabled: sendId !== null,
    refetchInterval: (query) => {
      const send = query.state.data;
      if (!send || !isActiveSend(send.state)) return false;
      const isWaiting =
        send.state === 'paused' ||
        (send.state === 'queued' && Date.parse(send.sendAt) > Date.now() + SEND_POLL_MS);
      return isWaiting ? WAITING_POLL_MS : SEND_POLL_MS;
    },
    refetchIntervalInBackground: false,
  });
