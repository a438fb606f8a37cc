import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WriteKeySummary, type UpdateWriteKeyBody } from '@shared/api/ingest';
import { apiRequest } from '@web/lib/api-client';
import { writeKeysPath, writeKeysQueryKey } from './list-write-keys';

const updateWriteKey = (workspaceId: string, id: string, body: UpdateWriteKeyBody) =>
  apiRequest(`${writeKeysPath(workspaceId)}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
    schema: WriteKeySummary,
  });

/** PATCH …/write-keys/{id}: makes a key strict or not. Invalidates: the key list. */
export function useUpdateWriteKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateWriteKeyBody & { id: string }) =>
      updateWriteKey(workspaceId, id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: writeKeysQueryKey(workspaceId) }),
  });
}
