import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ProfileDetail, ProfilePage } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

const base = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/profiles`;

export const profileKeys = {
  all: (ws: string) => ['workspaces', ws, 'profiles'] as const,
  list: (ws: string, search: string) => ['workspaces', ws, 'profiles', 'list', search] as const,
  one: (ws: string, id: string) => ['workspaces', ws, 'profiles', 'one', id] as const,
};

/** GET …/profiles: keyset pages of profiles by id, optionally those whose id starts with `search`. */
export const useProfiles = (ws: string, search: string) =>
  useInfiniteQuery({
    queryKey: profileKeys.list(ws, search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '24' });
      if (search) query.set('search', search);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`${base(ws)}?${query}`, { schema: ProfilePage, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
  });

/** GET …/profiles/{id}: one profile's attributes and latest events. */
export const useProfile = (ws: string, id: string | null) =>
  useQuery({
    queryKey: profileKeys.one(ws, id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(`${base(ws)}/${encodeURIComponent(id!)}`, { schema: ProfileDetail, signal }),
    enabled: id !== null,
  });
