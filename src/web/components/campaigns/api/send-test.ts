import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { CampaignTestSendBody } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignPath } from './campaign-keys';

const TestSendAnswer = z.object({ message: z.string() });

/** POST …/campaigns/{id}/test-send: the campaign's message to test addresses, filled as a profile. */
export const useCampaignTestSend = (workspaceId: string, campaignId: string) =>
  useMutation({
    mutationFn: (body: CampaignTestSendBody) =>
      apiRequest(`${campaignPath(workspaceId, campaignId)}/test-send`, {
        method: 'POST',
        body,
        schema: TestSendAnswer,
      }),
  });
