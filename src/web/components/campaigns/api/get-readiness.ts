import { useQuery } from '@tanstack/react-query';
import { CampaignReadiness } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, campaignPath } from './campaign-keys';

/**
 * GET …/campaigns/{id}/readiness: the audience's size now, whom a send would reach, what stops it and
 * the send under way. Keyed by the item's version and its approvals of it: a save or an approval
 * changes what it answers.
 */
export const useCampaignReadiness = (
  workspaceId: string,
  campaignId: string,
  version: number,
  approvals: number,
) =>
  useQuery({
    queryKey: [...campaignKeys.readiness(workspaceId, campaignId), version, approvals] as const,
    queryFn: ({ signal }) =>
      apiRequest(`${campaignPath(workspaceId, campaignId)}/readiness`, { schema: CampaignReadiness, signal }),
  });
