import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedApiKey, type CreateApiKeyBody } from '@shared/api/delivery';
import { apiRequest } from '@web/lib/api-client';
import { apiKeysPath, apiKeysQueryKey } from './list-api-keys';

const createApiKey = (workspaceId: string, body: CreateApiKeyBody) =>
  apiRequest(apiKeysPath(workspaceId), { method: 'POST', body, schema: CreatedApiKey });

/** POST …/api-keys: answers the secret once. Invalidates: the key list. */
export function useCreateApiKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => createApiKey(workspaceId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQueryKey(workspaceId) }),
  });
}
