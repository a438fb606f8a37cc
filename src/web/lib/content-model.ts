import { queryOptions, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { ContentModelAnswer } from '@shared/api/content-model';
import type { Workspace } from '@shared/api/workspaces';
import { BUILT_IN_MODEL, ContentModel } from '@shared/model/registry';
import { apiRequest } from './api-client';
import { withOfflineCopy } from './offline-copy';
import { useCurrentWorkspace, workspaceQueryOptions } from './workspace';

/**
 * The workspace's content model (its domains, schemas and fields), by the version its workspace names:
 * every screen looks schemas up here. Version 0 is the built-in model and needs no request; any other
 * version is loaded once (the workspace route's loader does it before the screen renders) and kept, since
 * a version never changes.
 */
export const contentModelQueryKey = (ws: string, version: number) => ['content-model', ws, version] as const;

const getContentModel = async (ws: string, version: number, client: QueryClient) => {
  const answer = await withOfflineCopy(`content-model:${ws}`, () =>
    apiRequest(`/api/v1/workspaces/${encodeURIComponent(ws)}/content-model`, { schema: ContentModelAnswer }),
  );
  const model = new ContentModel(answer.version, answer.model, answer.renamed);
  // Changed again since the workspace was read: this is that later version's model too.
  if (answer.version !== version) client.setQueryData(contentModelQueryKey(ws, answer.version), model);
  return model;
};

export const contentModelQueryOptions = (ws: string, version: number) =>
  queryOptions({
    queryKey: contentModelQueryKey(ws, version),
    queryFn: ({ client }) => getContentModel(ws, version, client),
    staleTime: Infinity,
    gcTime: Infinity,
    initialData: version === 0 ? BUILT_IN_MODEL : undefined,
  });

/** Fetches a workspace (unless fresh) and loads its model into the cache: route loaders call this. */
export async function loadWorkspaceModel(client: QueryClient, ws: string) {
  const workspace = await client.fetchQuery(workspaceQueryOptions(ws));
  const model = await client.ensureQueryData(contentModelQueryOptions(ws, workspace.modelVersion));
  return { workspace, model };
}

/** The model of a workspace at the version it names; suspends while a version not seen yet loads. */
export const useWorkspaceModel = (workspace: Pick<Workspace, 'id' | 'modelVersion'>): ContentModel =>
  useSuspenseQuery(contentModelQueryOptions(workspace.id, workspace.modelVersion)).data;

/** The content model of the workspace of the current URL (loaded by its route's loader). */
export const useContentModel = (): ContentModel => useWorkspaceModel(useCurrentWorkspace());
