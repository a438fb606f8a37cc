import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignInResponse, type SignInBody } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';
import { meQueryKey } from '@web/lib/auth';

export const signIn = (body: SignInBody) =>
  apiRequest('/api/v1/auth/sign-in', { method: 'POST', body, schema: SignInResponse });

/** POST /api/v1/auth/sign-in. Invalidates: everything cached for the previous user; sets `me`. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: ({ user }) => {
      client.clear();
      client.setQueryData(meQueryKey, user);
    },
  });
}
