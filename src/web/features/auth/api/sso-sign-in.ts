import { useMutation } from '@tanstack/react-query';
import { SSO_MESSAGES } from '@shared/api/sso';
import { discoverSso, startSsoSignIn } from '@web/lib/sso';

/** The query parameter the callback brings a refused sign-in's message back in. */
export const SSO_ERROR_PARAM = 'ssoError';

/** GET /api/v1/auth/sso/discover, then off to the provider of the address's workspace. */
export function useSsoSignIn() {
  return useMutation({
    mutationFn: async ({ email, returnTo }: { email: string; returnTo?: string }) => {
      const found = await discoverSso(email);
      if (!found.workspaceId) throw new Error(SSO_MESSAGES.noWorkspaceForEmail);
      startSsoSignIn(found.workspaceId, { returnTo });
    },
  });
}
