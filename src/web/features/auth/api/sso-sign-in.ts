import { useMutation } from '@tanstack/react-query';
import { SSO_MESSAGES, SsoDiscovery, ssoStartPath } from '@shared/api/sso';
import { ApiError, apiRequest } from '@web/lib/api-client';

/** The query parameter the callback brings a refused sign-in's message back in. */
export const SSO_ERROR_PARAM = 'ssoError';

/** The workspace of a password sign-in refused because it signs the address in with single sign-on. */
export function ssoWorkspaceOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'sso_required') return null;
  const details = error.details as { workspaceId?: unknown } | undefined;
  return typeof details?.workspaceId === 'string' ? details.workspaceId : null;
}

/** Leaves for the workspace's provider; the callback comes back signed in, to `returnTo`. */
export function startSsoSignIn(workspaceId: string, returnTo?: string) {
  const query = returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : '';
  window.location.assign(`${ssoStartPath(workspaceId)}${query}`);
}

/** GET /api/v1/auth/sso/discover, then off to the provider of the address's workspace. */
export function useSsoSignIn() {
  return useMutation({
    mutationFn: async ({ email, returnTo }: { email: string; returnTo?: string }) => {
      const found = await apiRequest(`/api/v1/auth/sso/discover?email=${encodeURIComponent(email)}`, {
        schema: SsoDiscovery,
      });
      if (!found.workspaceId) throw new Error(SSO_MESSAGES.noWorkspaceForEmail);
      startSsoSignIn(found.workspaceId, returnTo);
    },
  });
}
