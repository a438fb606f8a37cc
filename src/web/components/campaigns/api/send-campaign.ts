import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CampaignSendAnswer, type SendCampaignBody } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, campaignPath } from './campaign-keys';

/**
 * POST …/campaigns/{id}/send: starts a send (202), or queues it for the campaign's send time.
 * Invalidates: the readiness (its current send) and the list of sends.
 */
export function useSendCampaign(workspaceId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SendCampaignBody = {}) =>
      apiRequest(`${campaignPath(workspaceId, campaignId)}/send`, {
        method: 'POST',
        body,
        schema: CampaignSendAnswer,
      }),
    onSuccess: ({ send }) => {
      client.setQueryData(campaignKeys.send(workspaceId, campaignId, send.id), send);
      return Promise.all([
        client.invalidateQueries({ queryKey: campaignKeys.readiness(workspaceId, campaignId) }),
        client.invalidateQueries({ queryKey: campaignKeys.sends(workspaceId, campaignId), exact: true }),
      ]);
    },
  });
}
