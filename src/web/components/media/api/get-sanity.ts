import { queryOptions, useQuery } from '@tanstack/react-query';
import { SanityResult, WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import { apiRequest } from '@web/lib/api-client';

export const sanityQueryKey = (workspaceId: string, storageName: string) =>
  ['media', workspaceId, 'sanity', storageName] as const;

/** GET /fun/sanity/?id=…: analyses the image (and stores the answer in its file record). */
export function getSanity(
  workspaceId: string,
  storageName: string,
  signal?: AbortSignal,
): Promise<SanityResult> {
  const query = new URLSearchParams({ id: storageName, [WORKSPACE_QUERY_PARAM]: workspaceId });
  return apiRequest(`/fun/sanity/?${query}`, { schema: SanityResult, signal });
}

const sanityQueryOptions = (workspaceId: string, storageName: string) =>
  queryOptions({
    queryKey: sanityQueryKey(workspaceId, storageName),
    queryFn: ({ signal }) => getSanity(workspaceId, storageName, signal),
    staleTime: 5 * 60_000,
  });

/** The image analysis of a stored file; `enabled` false when the caller already has it. */
export const useSanity = (workspaceId: string, storageName: string, enabled = true) =>
  useQuery({
    ...sanityQueryOptions(workspaceId, storageName),
    enabled: enabled && !!workspaceId && !!storageName,
  });
