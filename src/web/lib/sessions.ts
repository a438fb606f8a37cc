import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SessionList } from '@shared/api/auth';
import { apiRequest } from './api-client';

const sessionsQueryKey = ['auth', 'sessions'] as const;

/** GET /api/v1/auth/sessions: the signed-in user's sessions, while the list is open. */
export const useSessions = (isOpen: boolean) =>
  useQuery({
    queryKey: sessionsQueryKey,
    queryFn: () => apiRequest('/api/v1/auth/sessions', { schema: SessionList }),
    enabled: isOpen,
  });

/** DELETE /api/v1/auth/sessions/{id}. Invalidates: the sessions list. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/v1/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
