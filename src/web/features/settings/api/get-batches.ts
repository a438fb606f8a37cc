import { useQuery } from '@tanstack/react-query';
import { BatchList } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

const batchesQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'batches'] as const;

const getBatches = (workspaceId: string) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/batches`, { schema: BatchList });

/**
 * GET /api/v1/workspaces/{id}/batches: the workspace's bulk jobs; read again on every visit (jobs start
 * elsewhere: a cached empty list would hide the upload just made) and polled while one is running.
 */
export const useBatches = (workspaceId: string) =>
  useQuery({
    queryKey: batchesQueryKey(workspaceId),
    queryFn: () => getBatches(workspaceId),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.batches.some((b) => b.status === 'queued' || b.status === 'running') ? 1000 : false,
  });
