import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ModelApplied, type ChangeSetBody } from '@shared/api/content-model';
import { apiRequest } from '@web/lib/api-client';
import { contentModelPath, reloadContentModel } from './get-content-model';
import { modelChangesQueryKey } from './list-model-changes';

const applyModelChange = (workspaceId: string, body: ChangeSetBody) =>
  apiRequest(`${contentModelPath(workspaceId)}/apply`, { method: 'POST', body, schema: ModelApplied });

/** After the model changed: the workspace (which names the model's version) with that model, and the history. */
export function refreshAfterModelChange(client: QueryClient, workspaceId: string) {
  return Promise.all([
    reloadContentModel(client, workspaceId),
    client.invalidateQueries({ queryKey: modelChangesQueryKey(workspaceId) }),
  ]);
}

/** POST …/content-model/apply. Invalidates: the model, its history and the workspace. */
export function useApplyModelChange(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeSetBody) => applyModelChange(workspaceId, body),
    onSuccess: () => refreshAfterModelChange(client, workspaceId),
  });
}
