import { useMutation } from '@tanstack/react-query';
import { OkResponse } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';

const changeEmail = (body: { currentPassword: string; newEmail: string; returnTo?: string }) =>
  apiRequest('/api/v1/auth/change-email', { method: 'POST', body, schema: OkResponse });

/** POST /api/v1/auth/change-email: mails a confirmation link to the new address. Invalidates nothing yet. */
export const useChangeEmail = () => useMutation({ mutationFn: changeEmail });
