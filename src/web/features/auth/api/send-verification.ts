import { useMutation } from '@tanstack/react-query';
import { OkResponse } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';

const sendVerification = (returnTo?: string) =>
  apiRequest('/api/v1/auth/send-verification', {
    method: 'POST',
    body: returnTo ? { returnTo } : {},
    schema: OkResponse,
  });

/** POST /api/v1/auth/send-verification. Invalidates nothing. */
export const useSendVerification = () => useMutation({ mutationFn: sendVerification });
