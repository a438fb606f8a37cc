import { useQuery } from '@tanstack/react-query';
import { ScimTokenList } from '@shared/api/scim';
import { apiRequest } from '@web/lib/api-client';

export const scimTokensQueryKey = (workspaceId: string) =>
  ['workspaces', workspaceId, 'scim-tokens'] as const;
export const scimTokensPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/scim-tokens`;

/** GET …/scim-tokens: the SCIM base URL to register and the workspace's tokens, without their secrets. */
export const useScimTokens = (workspaceId: string) =>
  useQuery({
    queryKey: scimTokensQueryKey(workspaceId),
    queryFn: () => apiRequest(scimTokensPath(workspaceId), { schema: ScimTokenList }),
  });
