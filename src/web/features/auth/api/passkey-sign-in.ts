import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignedIn } from '@shared/api/auth';
import { PasskeyOptions } from '@shared/api/passkeys';
import { apiRequest } from '@web/lib/api-client';
import { meQueryKey } from '@web/lib/auth';
import { askForPasskey } from '@web/lib/passkeys';

/**
 * POST /api/v1/auth/sign-in/passkey/options, the browser's passkey prompt, then POST
 * /api/v1/auth/sign-in/passkey. Invalidates: everything cached for the previous user; sets `me`.
 */
export function usePasskeySignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const options = await apiRequest('/api/v1/auth/sign-in/passkey/options', {
        method: 'POST',
        schema: PasskeyOptions,
      });
      const response = await askForPasskey(options);
      return apiRequest('/api/v1/auth/sign-in/passkey', {
        method: 'POST',
        body: { response },
        schema: SignedIn,
      });
    },
    onSuccess: ({ user }) => {
      client.clear();
      client.setQueryData(meQueryKey, user);
    },
  });
}

/** POST /api/v1/auth/sign-in/two-factor/passkey-options and the browser's prompt: the passkey's answer. */
export async function passkeyForSecondStep(pendingToken: string) {
  const options = await apiRequest('/api/v1/auth/sign-in/two-factor/passkey-options', {
    method: 'POST',
    body: { pendingToken },
    schema: PasskeyOptions,
  });
  return askForPasskey(options);
}
