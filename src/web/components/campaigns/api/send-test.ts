import { useMutation } from '@tanstack/react-query';
import { CampaignTestSendAnswer, type CampaignTestSendBody } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignPath } from './campaign-keys';

/** POST …/campaigns/{id}/test-send: the campaign's message to test addresses, filled as a profile. */
export const useCampaignTestSend = (workspaceId: string, campaignId: string) =>
  useMutation({
    mutationFn: (body: CampaignTestSendBody) =>
      apiRequest(`${campaignPath(workspaceId, campaignId)}/test-send`, {
        method: 'POST',
        body,
        schema: CampaignTestSendAnswer,
      }),
  });
