import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignUpResponse, type SignUpBody } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';
import { meQueryKey } from '@web/lib/auth';

export const signUp = (body: SignUpBody) =>
  apiRequest('/api/v1/auth/sign-up', { method: 'POST', body, schema: SignUpResponse });

/** POST /api/v1/auth/sign-up: signs the new user in (email unverified). Sets `me`. */
export function useSignUp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: ({ user }) => {
      client.clear();
      client.setQueryData(meQueryKey, user);
    },
  });
}
