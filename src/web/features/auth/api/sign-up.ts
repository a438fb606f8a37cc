import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SignUpResponse, type SignUpBody } from '@shared/api/auth';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { meQueryKey } from '@web/lib/auth';
import { signIn } from './sign-in';

const signUp = (body: SignUpBody) =>
  apiRequest('/api/v1/auth/sign-up', { method: 'POST', body, schema: SignUpResponse });

/**
 * Sign-up answers alike whether or not the address has an account, so the form signs in with the same
 * email and password next: a new account (unverified) is signed in; a registered address with another
 * password is not, and its owner has been mailed.
 */
const ALREADY_REGISTERED_MESSAGE =
  'We could not create this account. If this address already has one, we have emailed its owner: sign in with your password, or reset it.';

/** POST /api/v1/auth/sign-up, then /auth/sign-in. Sets `me`. */
export function useSignUp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: SignUpBody) => {
      await signUp(body);
      try {
        return await signIn({ email: body.email, password: body.password });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          throw new ApiError(409, 'not_created', ALREADY_REGISTERED_MESSAGE);
        }
        throw err;
      }
    },
    onSuccess: (result) => {
      // A new account has no second step.
      if (!('user' in result)) return;
      client.clear();
      client.setQueryData(meQueryKey, result.user);
    },
  });
}
