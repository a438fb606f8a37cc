import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@web/lib/api-client';
import { writeKeysPath, writeKeysQueryKey } from './list-write-keys';

const revokeWriteKey = (workspaceId: string, id: string) =>
  apiRequest(`${writeKeysPath(workspaceId)}/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** DELETE …/write-keys/{id}: the key stops working at once. Invalidates: the key list. */
export function useRevokeWriteKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeWriteKey(workspaceId, id),
    onSuccess: () => client.invalidateQueries({ queryKey: writeKeysQueryKey(workspaceId) }),
  });
}
