import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignedIn, SignInResponse, type SignInBody } from '@shared/api/auth';
import type { TwoFactorSignInBody } from '@shared/api/two-factor';
import { apiRequest } from '@web/lib/api-client';
import { meQueryKey } from '@web/lib/auth';
import { passkeyForSecondStep } from './passkey-sign-in';

export const signIn = (body: SignInBody) =>
  apiRequest('/api/v1/auth/sign-in', { method: 'POST', body, schema: SignInResponse });

/** POST /api/v1/auth/sign-in. Invalidates: everything cached for the previous user; sets `me` (once signed in). */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result) => {
      if (!('user' in result)) return;
      client.clear();
      client.setQueryData(meQueryKey, result.user);
    },
  });
}

/** POST /api/v1/auth/sign-in/two-factor (with a passkey: its options and the browser's prompt first). Invalidates: everything cached for the previous user; sets `me`. */
export function useSignInSecondStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: TwoFactorSignInBody | { pendingToken: string; usePasskey: true }) => {
      const answer =
        'usePasskey' in body
          ? { pendingToken: body.pendingToken, passkey: await passkeyForSecondStep(body.pendingToken) }
          : body;
      return apiRequest('/api/v1/auth/sign-in/two-factor', {
        method: 'POST',
        body: answer,
        schema: SignedIn,
      });
    },
    onSuccess: ({ user }) => {
      client.clear();
      client.setQueryData(meQueryKey, user);
    },
  });
}
