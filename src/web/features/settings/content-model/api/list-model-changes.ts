import { useQuery } from '@tanstack/react-query';
import { ModelChange, ModelHistory } from '@shared/api/content-model';
import { apiRequest } from '@web/lib/api-client';
import { contentModelPath } from './get-content-model';

export const modelChangesQueryKey = (workspaceId: string) =>
  ['workspaces', workspaceId, 'content-model', 'changes'] as const;

const listModelChanges = (workspaceId: string) =>
  apiRequest(`${contentModelPath(workspaceId)}/changes`, { schema: ModelHistory });

const getModelChange = (workspaceId: string, id: string) =>
  apiRequest(`${contentModelPath(workspaceId)}/changes/${encodeURIComponent(id)}`, { schema: ModelChange });

/**
 * GET …/content-model/changes: every applied change set, newest first; asked again every second while
 * the data of one is still being converted, so its progress shows.
 */
export const useModelChanges = (workspaceId: string) =>
  useQuery({
    queryKey: modelChangesQueryKey(workspaceId),
    queryFn: () => listModelChanges(workspaceId),
    refetchInterval: (query) =>
      query.state.data?.changes.some((change) => change.state === 'running') ? 1000 : false,
  });

/**
 * GET …/content-model/changes/{id}: one change with the items it transformed; asked again every second
 * while its data is still being converted.
 */
export const useModelChange = (workspaceId: string, id: string | null) =>
  useQuery({
    queryKey: [...modelChangesQueryKey(workspaceId), id] as const,
    queryFn: () => getModelChange(workspaceId, id!),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });
