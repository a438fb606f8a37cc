import { useQuery } from '@tanstack/react-query';
import { CampaignStatuses } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys } from './campaign-keys';

/** GET …/campaigns/statuses: where each campaign stands, one request for a whole list. */
export const useCampaignStatuses = (workspaceId: string) =>
  useQuery({
    queryKey: campaignKeys.statuses(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/campaigns/statuses`, {
        schema: CampaignStatuses,
        signal,
      }),
  });
