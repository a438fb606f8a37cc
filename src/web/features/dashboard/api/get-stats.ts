import { queryOptions, useQuery } from '@tanstack/react-query';
import { WorkspaceStats } from '@shared/api/stats';
import { apiRequest } from '@web/lib/api-client';

/** GET /api/v1/workspaces/{ws}/stats: the dashboard's numbers. Publishing and saving items change them. */
const statsQueryKey = (ws: string) => ['workspaces', ws, 'stats'] as const;

const statsQueryOptions = (ws: string) =>
  queryOptions({
    queryKey: statsQueryKey(ws),
    queryFn: ({ signal }) =>
      apiRequest(`/api/v1/workspaces/${encodeURIComponent(ws)}/stats`, { schema: WorkspaceStats, signal }),
    staleTime: 0,
  });

export const useStats = (ws: string) => useQuery(statsQueryOptions(ws));
