import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeclaredAnswer, type DeclareBody } from '@shared/api/undeclared';
import { apiRequest } from '@web/lib/api-client';
import { undeclaredPath, undeclaredQueryKey } from './list-undeclared';

const declareUndeclared = (workspaceId: string, body: DeclareBody) =>
  apiRequest(`${undeclaredPath(workspaceId)}/declare`, { method: 'POST', body, schema: DeclaredAnswer });

/**
 * POST …/undeclared/declare: an event, property or attribute becomes a definition. Invalidates: the
 * undeclared list, and the workspace's items (the definitions' lists and the criteria catalogue).
 */
export function useDeclareUndeclared(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeclareBody) => declareUndeclared(workspaceId, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: undeclaredQueryKey(workspaceId) }),
        client.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'items'] }),
      ]),
  });
}
