import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@web/lib/api-client';
import { scimTokensPath, scimTokensQueryKey } from './get-scim-tokens';

const revokeScimToken = (workspaceId: string, id: string) =>
  apiRequest(`${scimTokensPath(workspaceId)}/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** DELETE …/scim-tokens/{id}: the provider's next request with it is refused. Invalidates: the token list. */
export function useRevokeScimToken(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeScimToken(workspaceId, id),
    onSuccess: () => client.invalidateQueries({ queryKey: scimTokensQueryKey(workspaceId) }),
  });
}
