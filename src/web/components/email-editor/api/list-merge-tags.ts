import { useQuery } from '@tanstack/react-query';
import { MergeTagList } from '@shared/api/email';
import { apiRequest } from '@web/lib/api-client';

/** GET …/emails/merge-tags: the keys of the workspace's customer profile attributes. */
const listMergeTags = (workspaceId: string, signal?: AbortSignal) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/emails/merge-tags`, {
    schema: MergeTagList,
    signal,
  });

export const useMergeTags = (workspaceId: string) =>
  useQuery({
    queryKey: ['email', workspaceId, 'merge-tags'],
    queryFn: ({ signal }) => listMergeTags(workspaceId, signal),
    enabled: !!workspaceId,
    staleTime: 60_000,
  });
