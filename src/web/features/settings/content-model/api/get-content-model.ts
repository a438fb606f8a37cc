import type { QueryClient } from '@tanstack/react-query';
import type { ContentModelAnswer } from '@shared/api/content-model';
import { contentModelQueryOptions } from '@web/lib/content-model';
import { workspaceQueryOptions } from '@web/lib/workspace';

export const contentModelPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/content-model`;

/**
 * The workspace read again now, and the model of the version it names loaded: after a change is applied
 * or refused as stale (409), the screen goes on from the current model.
 */
export async function reloadContentModel(
  client: QueryClient,
  workspaceId: string,
): Promise<ContentModelAnswer> {
  const workspace = await client.fetchQuery({ ...workspaceQueryOptions(workspaceId), staleTime: 0 });
  const model = await client.ensureQueryData(contentModelQueryOptions(workspaceId, workspace.modelVersion));
  return { version: model.version, model: model.doc };
}
