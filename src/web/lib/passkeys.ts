import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { Passkey, PasskeyList, PasskeyOptions } from '@shared/api/passkeys';
import { apiRequest } from './api-client';

const passkeysQueryKey = ['auth', 'passkeys'] as const;

export const isPasskeySupported = () => browserSupportsWebAuthn();

/** The browser's refusals in words: a cancelled or timed-out prompt, or a passkey the account has already. */
function browserRefusal(err: unknown): Error {
  const name = err instanceof Error ? err.name : '';
  if (name === 'InvalidStateError') return new Error('This passkey is added already');
  if (name === 'NotAllowedError' || name === 'AbortError')
    return new Error('The passkey prompt was closed or timed out. Try again.');
  return err instanceof Error ? err : new Error('The browser could not use a passkey');
}

/** Asks the browser's authenticator to answer the server's options for signing in. */
export async function askForPasskey(options: PasskeyOptions) {
  try {
    return await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
  } catch (err) {
    throw browserRefusal(err);
  }
}

/** GET /api/v1/auth/passkeys: the signed-in user's passkeys, while the dialog is open. */
export const usePasskeys = (isOpen: boolean) =>
  useQuery({
    queryKey: passkeysQueryKey,
    queryFn: () => apiRequest('/api/v1/auth/passkeys', { schema: PasskeyList }),
    enabled: isOpen,
  });

/**
 * POST /api/v1/auth/passkeys/registration-options, the browser's prompt, then POST /api/v1/auth/passkeys.
 * Invalidates: the passkeys list.
 */
export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await apiRequest('/api/v1/auth/passkeys/registration-options', {
        method: 'POST',
        schema: PasskeyOptions,
      });
      let response;
      try {
        response = await startRegistration({
          optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
        });
      } catch (err) {
        throw browserRefusal(err);
      }
      return apiRequest('/api/v1/auth/passkeys', {
        method: 'POST',
        body: { name, response },
        schema: Passkey,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

/** DELETE /api/v1/auth/passkeys/{id}. Invalidates: the passkeys list. */
export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/v1/auth/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
