import { ProfileDetail } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

/** GET …/profiles/{id}: a stored customer profile, whose attributes fill an email preview's merge tags. */
export const getProfile = (workspaceId: string, profileId: string, signal?: AbortSignal) =>
  apiRequest(
    `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/profiles/${encodeURIComponent(profileId)}`,
    { schema: ProfileDetail, signal },
  );
