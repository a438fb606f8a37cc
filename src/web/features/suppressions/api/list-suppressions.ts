import { useInfiniteQuery } from '@tanstack/react-query';
import { SuppressionPage } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

export const suppressionsUrl = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/suppressions`;

export const suppressionKeys = {
  all: (ws: string) => ['workspaces', ws, 'suppressions'] as const,
  list: (ws: string, search: string) => ['workspaces', ws, 'suppressions', search] as const,
};

/** GET …/suppressions: the suppression list, newest first, optionally those starting with `search`. */
export const useSuppressions = (ws: string, search: string) =>
  useInfiniteQuery({
    queryKey: suppressionKeys.list(ws, search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (search) query.set('search', search);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`${suppressionsUrl(ws)}?${query}`, { schema: SuppressionPage, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
  });
