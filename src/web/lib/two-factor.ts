import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RecoveryCodesResponse,
  TwoFactorSetup,
  TwoFactorStatus,
  type TwoFactorCodeBody,
  type TwoFactorProofBody,
} from '@shared/api/two-factor';
import { apiRequest } from './api-client';

const statusQueryKey = ['auth', 'two-factor'] as const;

/** GET /api/v1/auth/two-factor: whether two-factor sign-in is on, while the dialog is open. */
export const useTwoFactorStatus = (isOpen: boolean) =>
  useQuery({
    queryKey: statusQueryKey,
    queryFn: () => apiRequest('/api/v1/auth/two-factor', { schema: TwoFactorStatus }),
    enabled: isOpen,
  });

/** POST /api/v1/auth/two-factor/setup: a new secret to enter in an authenticator app. */
export const useStartTwoFactorSetup = () =>
  useMutation({
    mutationFn: () => apiRequest('/api/v1/auth/two-factor/setup', { method: 'POST', schema: TwoFactorSetup }),
  });

/** POST /api/v1/auth/two-factor/enable, /disable and /recovery-codes. Invalidates: the two-factor status. */
export function useTwoFactorChange<Body extends TwoFactorCodeBody | TwoFactorProofBody>(
  path: 'enable' | 'disable' | 'recovery-codes',
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      apiRequest(`/api/v1/auth/two-factor/${path}`, {
        method: 'POST',
        body,
        schema: path === 'disable' ? undefined : RecoveryCodesResponse,
      }) as Promise<RecoveryCodesResponse | undefined>,
    onSuccess: () => client.invalidateQueries({ queryKey: statusQueryKey }),
  });
}
