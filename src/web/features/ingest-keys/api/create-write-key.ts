import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedWriteKey, type CreateWriteKeyBody } from '@shared/api/ingest';
import { apiRequest } from '@web/lib/api-client';
import { writeKeysPath, writeKeysQueryKey } from './list-write-keys';

const createWriteKey = (workspaceId: string, body: CreateWriteKeyBody) =>
  apiRequest(writeKeysPath(workspaceId), { method: 'POST', body, schema: CreatedWriteKey });

/** POST …/write-keys: answers the secret once. Invalidates: the key list. */
export function useCreateWriteKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWriteKeyBody) => createWriteKey(workspaceId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: writeKeysQueryKey(workspaceId) }),
  });
}
