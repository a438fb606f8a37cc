import { queryOptions, useQuery } from '@tanstack/react-query';
import { ContentModelAnswer } from '@shared/api/content-model';
import { apiRequest } from '@web/lib/api-client';

export const contentModelPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/content-model`;

/** The model as this screen edits it: read fresh, then held still while a change set is made against it. */
export const editedModelQueryKey = (workspaceId: string) =>
  ['workspaces', workspaceId, 'content-model', 'edited'] as const;

const getContentModel = (workspaceId: string) =>
  apiRequest(contentModelPath(workspaceId), { schema: ContentModelAnswer });

export const editedModelQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: editedModelQueryKey(workspaceId),
    queryFn: () => getContentModel(workspaceId),
    // Pending operations are made against this version: it changes only when the screen reloads it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** GET …/content-model: the current model and its version. */
export const useEditedModel = (workspaceId: string) => useQuery(editedModelQueryOptions(workspaceId));
