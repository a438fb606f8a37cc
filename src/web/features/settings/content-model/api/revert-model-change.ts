import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ModelApplied } from '@shared/api/content-model';
import { apiRequest } from '@web/lib/api-client';
import { refreshAfterModelChange } from './apply-model-change';
import { contentModelPath } from './get-content-model';

const revertModelChange = (workspaceId: string, id: string, baseVersion: number) =>
  apiRequest(`${contentModelPath(workspaceId)}/changes/${encodeURIComponent(id)}/revert`, {
    method: 'POST',
    body: { baseVersion },
    schema: ModelApplied,
  });

/** POST …/content-model/changes/{id}/revert: applies the change's inverse. Invalidates: as applying does. */
export function useRevertModelChange(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, baseVersion }: { id: string; baseVersion: number }) =>
      revertModelChange(workspaceId, id, baseVersion),
    onSuccess: () => refreshAfterModelChange(client, workspaceId),
  });
}
