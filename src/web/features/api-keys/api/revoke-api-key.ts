import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@web/lib/api-client';
import { apiKeysPath, apiKeysQueryKey } from './list-api-keys';

const revokeApiKey = (workspaceId: string, id: string) =>
  apiRequest(`${apiKeysPath(workspaceId)}/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** DELETE …/api-keys/{id}: the key stops working at once. Invalidates: the key list. */
export function useRevokeApiKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeApiKey(workspaceId, id),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey(workspaceId) }),
  });
}
