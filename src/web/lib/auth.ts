import { queryOptions, useQuery } from '@tanstack/react-query';
import { MeResponse, type User } from '@shared/api/auth';
import { apiRequest, isUnauthenticated } from './api-client';
import { forgetOfflineCopies, withOfflineCopy } from './offline-copy';

/** Who is signed in; shared by the route guards, the app shell and every feature. */
export const meQueryKey = ['me'] as const;

/**
 * GET /api/v1/me; a 401 means nobody is signed in and answers null rather than failing (and forgets the
 * offline copies). Without a network, the user this browser last saw signed in.
 */
export async function getMe(): Promise<User | null> {
  try {
    return await withOfflineCopy(
      'me',
      async () => (await apiRequest('/api/v1/me', { schema: MeResponse })).user,
    );
  } catch (e) {
    if (!isUnauthenticated(e)) throw e;
    forgetOfflineCopies();
    return null;
  }
}

export const meQueryOptions = () => queryOptions({ queryKey: meQueryKey, queryFn: getMe, staleTime: 60_000 });

export function useMe() {
  return useQuery(meQueryOptions());
}

export function initials(name: string | undefined, email?: string): string {
  const source = (name ?? '').trim() || (email ?? '').split('@')[0] || '?';
  const parts = source.split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : source.slice(0, 2);
  return letters.toUpperCase();
}
