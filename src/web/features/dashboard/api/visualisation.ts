import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Visualisation } from '@shared/api/stats';
import { apiRequest } from '@web/lib/api-client';

/** GET and POST /api/v1/workspaces/{ws}/visualisation: stored results, and a manager's refresh. */
const visualisationUrl = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/visualisation`;
const visualisationQueryKey = (ws: string) => ['workspaces', ws, 'visualisation'] as const;

const visualisationQueryOptions = (ws: string) =>
  queryOptions({
    queryKey: visualisationQueryKey(ws),
    queryFn: ({ signal }) => apiRequest(visualisationUrl(ws), { schema: Visualisation, signal }),
  });

export const useVisualisation = (ws: string) => useQuery(visualisationQueryOptions(ws));

export function useRefreshVisualisation(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(visualisationUrl(ws), { method: 'POST', schema: Visualisation }),
    onSuccess: (answer) => client.setQueryData(visualisationQueryKey(ws), answer),
  });
}
