import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  FacebookInterests,
  ServiceStatus,
  XInterests,
  type FACEBOOK_SEARCH_TYPES,
} from '@shared/api/services';
import { ErrorBody } from '@shared/api/errors';
import { ApiError, apiRequest } from '@web/lib/api-client';

/**
 * Fetchers and hooks of service connections and interest search, beside the fields that use
 * them: the item form is a shared component and may not import a feature.
 */
const WORKSPACE_PARAM = '__marquee_workspace';
const withWorkspace = (path: string, ws: string, params: Record<string, string> = {}) =>
  `${path}?${new URLSearchParams({ ...params, [WORKSPACE_PARAM]: ws })}`;

/** Where the 600 × 600 pop-up starts the provider's sign-in. */
export const authUrl = (ws: string, provider: string) => withWorkspace(`/fun/auth/${provider}`, ws);

/**
 * Asks the auth route whether it would start (a redirect) or refuse (e.g. 'Service not configured'),
 * so the field can say why before opening a pop-up that would only show an error.
 */
export async function checkAuthStart(ws: string, provider: string): Promise<ApiError | null> {
  const response = await fetch(authUrl(ws, provider), { redirect: 'manual', credentials: 'same-origin' });
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) return null;
  const body = ErrorBody.safeParse(await response.json().catch(() => null));
  if (!body.success)
    return new ApiError(response.status, 'http_error', `Request failed (${response.status})`);
  const { code, message, details } = body.data.error;
  return new ApiError(response.status, code, message, details);
}

/** GET /fun/ping/{service}: the connection's status at the provider. */
export const pingService = (ws: string, id: string) =>
  apiRequest(withWorkspace(`/fun/ping/${encodeURIComponent(id)}`, ws), { schema: ServiceStatus });

/** DELETE /fun/delete/{service}: revokes the grant and clears the stored connection. */
export const deleteService = (ws: string, id: string) =>
  apiRequest(withWorkspace(`/fun/delete/${encodeURIComponent(id)}`, ws), {
    method: 'DELETE',
    schema: z.object({ revoked: z.boolean(), version: z.number() }),
  });

export type InterestProvider = 'facebook' | 'x';
export interface InterestHit {
  id: string;
  name: string;
  type?: string;
}

/** GET /fun/interest/{provider}: hits as the field stores them (name, id and, for X, type). */
async function searchInterests(
  ws: string,
  provider: InterestProvider,
  searchType: (typeof FACEBOOK_SEARCH_TYPES)[number],
  term: string,
  signal?: AbortSignal,
): Promise<InterestHit[]> {
  if (provider === 'facebook') {
    const answer = await apiRequest(
      withWorkspace('/fun/interest/facebook', ws, { searchtype: searchType, searchterm: term }),
      { schema: FacebookInterests, signal },
    );
    return answer.data.data;
  }
  const answer = await apiRequest(withWorkspace('/fun/interest/x', ws, { searchterm: term }), {
    schema: XInterests,
    signal,
  });
  return answer.map((hit) => ({ id: hit.targeting_value, name: hit.name, type: hit.targeting_type }));
}

/** Hits for a debounced term; a new term leaves the old query unused and TanStack Query aborts it. */
export const useInterestSearch = (
  ws: string,
  provider: InterestProvider,
  searchType: (typeof FACEBOOK_SEARCH_TYPES)[number],
  term: string,
) =>
  useQuery({
    queryKey: ['workspaces', ws, 'interests', provider, provider === 'facebook' ? searchType : '', term],
    queryFn: ({ signal }) => searchInterests(ws, provider, searchType, term, signal),
    enabled: !!ws && term.trim().length >= 2,
    staleTime: 60_000,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
