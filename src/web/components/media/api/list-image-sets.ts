import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ItemList, MAX_QUERY_LIMIT } from '@shared/api/items';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';
import { apiRequest } from '@web/lib/api-client';
import { itemsUrl } from './create-image-set';

const imageSetsQueryKey = (workspaceId: string) => ['media', workspaceId, 'image-sets'] as const;

/** GET /api/v1/workspaces/{id}/items/marquee-assets-image-set: a page of image sets, newest first. */
function listImageSets(workspaceId: string, cursor?: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ view: 'all', limit: String(MAX_QUERY_LIMIT) });
  if (cursor) query.set('cursor', cursor);
  return apiRequest(`${itemsUrl(workspaceId, IMAGE_SET_SCHEMA)}?${query}`, { schema: ItemList, signal });
}

const imageSetsQueryOptions = (workspaceId: string) =>
  infiniteQueryOptions({
    queryKey: imageSetsQueryKey(workspaceId),
    queryFn: ({ pageParam, signal }) => listImageSets(workspaceId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 10_000,
  });

/**
 * The workspace's image sets, page by page (the items API has no text search: the picker filters the
 * loaded pages by name, alt text and labels, and loads more on demand).
 */
export const useImageSets = (workspaceId: string, enabled = true) =>
  useInfiniteQuery({ ...imageSetsQueryOptions(workspaceId), enabled: enabled && !!workspaceId });
