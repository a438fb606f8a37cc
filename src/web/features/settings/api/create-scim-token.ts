import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedScimToken, type CreateScimTokenBody } from '@shared/api/scim';
import { apiRequest } from '@web/lib/api-client';
import { scimTokensPath, scimTokensQueryKey } from './get-scim-tokens';

const createScimToken = (workspaceId: string, body: CreateScimTokenBody) =>
  apiRequest(scimTokensPath(workspaceId), { method: 'POST', body, schema: CreatedScimToken });

/** POST …/scim-tokens: answers the secret once. Invalidates: the token list. */
export function useCreateScimToken(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScimTokenBody) => createScimToken(workspaceId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: scimTokensQueryKey(workspaceId) }),
  });
}
