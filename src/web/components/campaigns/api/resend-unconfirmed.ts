import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CampaignSendAnswer } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, sendPath } from './campaign-keys';

/**
 * POST …/sends/{sendId}/resend-unconfirmed: the send goes again to its unconfirmed recipients.
 * Invalidates: the readiness (the send is under way again) and the list of sends.
 */
export function useResendUnconfirmed(workspaceId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sendId: string) =>
      apiRequest(`${sendPath(workspaceId, campaignId, sendId)}/resend-unconfirmed`, {
        method: 'POST',
        schema: CampaignSendAnswer,
      }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: campaignKeys.readiness(workspaceId, campaignId) }),
        client.invalidateQueries({ queryKey: campaignKeys.sends(workspaceId, campaignId), exact: true }),
        client.invalidateQueries({ queryKey: campaignKeys.lists(workspaceId) }),
      ]),
  });
}
