import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PROFILE_SEARCH_MIN, ProfilePage } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

const PICKER_LIMIT = 20;

/**
 * GET …/profiles?search=: the profiles a preview can be shown as. From three characters, those whose id,
 * email or another string attribute holds the search; shorter, the first page by id.
 */
export const useProfileSearch = (workspaceId: string, search: string) => {
  const term = search.trim().length >= PROFILE_SEARCH_MIN ? search.trim() : '';
  return useQuery({
    queryKey: ['workspaces', workspaceId, 'profiles', 'picker', term] as const,
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ limit: String(PICKER_LIMIT) });
      if (term) query.set('search', term);
      return apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/profiles?${query}`, {
        schema: ProfilePage,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
};
