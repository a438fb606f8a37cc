import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CampaignSend } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, sendPath } from './campaign-keys';

export type SendAction = 'pause' | 'resume' | 'cancel';

/**
 * POST …/sends/{sendId}/pause|resume|cancel. Stores the send it answers; invalidates the readiness (a
 * cancelled send is no longer under way) and the list of sends.
 */
export function useControlSend(workspaceId: string, campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sendId, action }: { sendId: string; action: SendAction }) =>
      apiRequest(`${sendPath(workspaceId, campaignId, sendId)}/${action}`, {
        method: 'POST',
        schema: CampaignSend,
      }),
    onSuccess: (send) => {
      client.setQueryData(campaignKeys.send(workspaceId, campaignId, send.id), send);
      return Promise.all([
        client.invalidateQueries({ queryKey: campaignKeys.readiness(workspaceId, campaignId) }),
        client.invalidateQueries({ queryKey: campaignKeys.sends(workspaceId, campaignId), exact: true }),
        client.invalidateQueries({ queryKey: campaignKeys.lists(workspaceId) }),
      ]);
    },
  });
}
