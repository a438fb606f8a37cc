import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ProfileAudiences, ProfileDetail, ProfileEventsPage, ProfilePage } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

export const profilesUrl = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/profiles`;

export const profileKeys = {
  all: (ws: string) => ['workspaces', ws, 'profiles'] as const,
  list: (ws: string, search: string) => ['workspaces', ws, 'profiles', 'list', search] as const,
  one: (ws: string, id: string) => ['workspaces', ws, 'profiles', 'one', id] as const,
  events: (ws: string, id: string, event: string) =>
    ['workspaces', ws, 'profiles', 'one', id, 'events', event] as const,
  audiences: (ws: string, id: string) => ['workspaces', ws, 'profiles', 'one', id, 'audiences'] as const,
};

/**
 * GET …/profiles: keyset pages of profiles by id; with a search of three characters or more, one page
 * of the profiles whose id, email or another string attribute holds it.
 */
export const useProfiles = (ws: string, search: string) =>
  useInfiniteQuery({
    queryKey: profileKeys.list(ws, search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '24' });
      if (search) query.set('search', search);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`${profilesUrl(ws)}?${query}`, { schema: ProfilePage, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
  });

/** GET …/profiles/{id}: one profile's attributes with their labels, consent and latest events. */
export const useProfile = (ws: string, id: string | null) =>
  useQuery({
    queryKey: profileKeys.one(ws, id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(`${profilesUrl(ws)}/${encodeURIComponent(id!)}`, { schema: ProfileDetail, signal }),
    enabled: id !== null,
  });

/** GET …/profiles/{id}/events: the timeline, newest first, optionally of one event key. */
export const useProfileEvents = (ws: string, id: string, event: string) =>
  useInfiniteQuery({
    queryKey: profileKeys.events(ws, id, event),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '25' });
      if (event) query.set('event', event);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`${profilesUrl(ws)}/${encodeURIComponent(id)}/events?${query}`, {
        schema: ProfileEventsPage,
        signal,
      });
    },
    getNextPageParam: (page) => page.nextCursor,
  });

/** GET …/profiles/{id}/audiences: the audiences the profile is in now. */
export const useProfileAudiences = (ws: string, id: string) =>
  useQuery({
    queryKey: profileKeys.audiences(ws, id),
    queryFn: ({ signal }) =>
      apiRequest(`${profilesUrl(ws)}/${encodeURIComponent(id)}/audiences`, {
        schema: ProfileAudiences,
        signal,
      }),
  });
