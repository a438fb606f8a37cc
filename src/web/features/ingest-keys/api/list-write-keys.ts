import { useQuery } from '@tanstack/react-query';
import { WriteKeyList } from '@shared/api/ingest';
import { apiRequest } from '@web/lib/api-client';

export const writeKeysQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'write-keys'] as const;
export const writeKeysPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/write-keys`;

const listWriteKeys = (workspaceId: string) =>
  apiRequest(writeKeysPath(workspaceId), { schema: WriteKeyList });

/** GET …/write-keys: the workspace's write keys for events, without their secrets. */
export const useWriteKeys = (workspaceId: string) =>
  useQuery({ queryKey: writeKeysQueryKey(workspaceId), queryFn: () => listWriteKeys(workspaceId) });
