import { useQuery } from '@tanstack/react-query';
import { CampaignResults } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, sendPath } from './campaign-keys';

/** Opens and clicks keep arriving after a send: its results are asked again this often while shown. */
const RESULTS_REFRESH_MS = 30_000;

/** GET …/campaigns/{id}/sends/{sendId}/results: counts, rates, opens and clicks per hour, clicks per link. */
export const useCampaignResults = (workspaceId: string, campaignId: string, sendId: string) =>
  useQuery({
    queryKey: campaignKeys.results(workspaceId, campaignId, sendId),
    queryFn: ({ signal }) =>
      apiRequest(`${sendPath(workspaceId, campaignId, sendId)}/results`, { schema: CampaignResults, signal }),
    refetchInterval: RESULTS_REFRESH_MS,
  });
