import { useQuery } from '@tanstack/react-query';
import { SsoDiscovery, ssoStartPath } from '@shared/api/sso';
import { ApiError, apiRequest } from './api-client';

/** The workspace of a password sign-in refused because it signs the address in with single sign-on. */
export function ssoWorkspaceOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'sso_required') return null;
  const details = error.details as { workspaceId?: unknown } | undefined;
  return typeof details?.workspaceId === 'string' ? details.workspaceId : null;
}

/** Leaves for the workspace's provider; the callback comes back (signed in, or linked) to `returnTo`. */
export function startSsoSignIn(workspaceId: string, options: { returnTo?: string; isLink?: boolean } = {}) {
  const query = new URLSearchParams();
  if (options.returnTo) query.set('returnTo', options.returnTo);
  if (options.isLink) query.set('link', '1');
  const search = query.size ? `?${query}` : '';
  window.location.assign(`${ssoStartPath(workspaceId)}${search}`);
}

/** GET /api/v1/auth/sso/discover: the workspace whose provider signs in this address, if any. */
export const discoverSso = (email: string) =>
  apiRequest(`/api/v1/auth/sso/discover?email=${encodeURIComponent(email)}`, { schema: SsoDiscovery });

/** The discovery of the signed-in user's own address, asked once a session. */
export const useOwnSsoDiscovery = (email: string | undefined) =>
  useQuery({
    queryKey: ['sso-discovery', email],
    queryFn: () => discoverSso(email!),
    enabled: !!email,
    staleTime: Infinity,
  });
