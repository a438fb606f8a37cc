import { useMutation } from '@tanstack/react-query';
import { OkResponse } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';

const requestPasswordReset = (body: { email: string; returnTo?: string }) =>
  apiRequest('/api/v1/auth/request-password-reset', { method: 'POST', body, schema: OkResponse });

/** POST /api/v1/auth/request-password-reset (always answers ok). Invalidates nothing. */
export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
