import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Workspace } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';
import { workspaceQueryKey, workspacesQueryKey } from '@web/lib/workspace';

const createWorkspace = (body: { name: string }) =>
  apiRequest('/api/v1/workspaces', { method: 'POST', body, schema: Workspace });

/** POST /api/v1/workspaces. Invalidates: the workspace list; caches the new workspace. */
export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: (workspace) => {
      client.setQueryData(workspaceQueryKey(workspace.id), workspace);
      void client.invalidateQueries({ queryKey: workspacesQueryKey, exact: true });
    },
  });
}
