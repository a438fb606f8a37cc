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
    // The send is not stored from this answer: by the time the readiness answers it may have moved on,
    // and the panel asks for the send itself as soon as the readiness names it.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: campaignKeys.readiness(workspaceId, campaignId) }),
        client.invalidateQueries({ queryKey: campaignKeys.sends(workspaceId, campaignId), exact: true }),
        client.invalidateQueries({ queryKey: campaignKeys.lists(workspaceId) }),
      ]),
  });
}
