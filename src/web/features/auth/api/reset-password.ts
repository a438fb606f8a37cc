import { useMutation } from '@tanstack/react-query';
import { LinkResultResponse } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';

const resetPassword = (body: { token: string; password: string }) =>
  apiRequest('/api/v1/auth/reset-password', { method: 'POST', body, schema: LinkResultResponse });

/** POST /api/v1/auth/reset-password. Invalidates nothing (the user signs in afterwards). */
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
