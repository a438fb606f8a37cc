import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CampaignPreview } from '@shared/api/campaigns';
import { apiRequest } from '@web/lib/api-client';
import { campaignKeys, campaignPath } from './campaign-keys';

/** GET …/campaigns/{id}/preview?profileId=: the subject and message as that profile would get them. */
export const useCampaignPreview = (
  workspaceId: string,
  campaignId: string,
  version: number,
  profileId: string | null,
) =>
  useQuery({
    queryKey: campaignKeys.preview(workspaceId, campaignId, version, profileId),
    queryFn: ({ signal }) => {
      const query = profileId ? `?${new URLSearchParams({ profileId })}` : '';
      return apiRequest(`${campaignPath(workspaceId, campaignId)}/preview${query}`, {
        schema: CampaignPreview,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });
