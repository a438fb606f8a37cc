import { useQuery } from '@tanstack/react-query';
import { ApiKeyList } from '@shared/api/delivery';
import { apiRequest } from '@web/lib/api-client';

export const apiKeysQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'api-keys'] as const;
export const apiKeysPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/api-keys`;

const listApiKeys = (workspaceId: string) => apiRequest(apiKeysPath(workspaceId), { schema: ApiKeyList });

/** GET …/api-keys: the workspace's delivery keys, without their secrets. */
export const useApiKeys = (workspaceId: string) =>
  useQuery({ queryKey: apiKeysQueryKey(workspaceId), queryFn: () => listApiKeys(workspaceId) });
