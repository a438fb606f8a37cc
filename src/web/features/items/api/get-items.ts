import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { ItemList, PAGE_SIZE } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemsPath, type ListQuery } from './keys';

/** GET /api/v1/workspaces/{ws}/items[/{schema}]?view&stage&q&cursor&limit: one page of a saved view. */
export function getItems(
  ws: string,
  query: ListQuery & { cursor?: string; limit?: number },
  signal?: AbortSignal,
) {
  const params = new URLSearchParams({ view: query.view, limit: String(query.limit ?? PAGE_SIZE) });
  if (query.stage) params.set('stage', query.stage);
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.near) params.set('near', query.near);
  if (query.near && query.radiusKm) params.set('radiusKm', String(query.radiusKm));
  if (query.missing) params.set('missing', query.missing);
  if (query.cursor) params.set('cursor', query.cursor);
  return apiRequest(`${itemsPath(ws, query.schema)}?${params}`, { schema: ItemList, signal });
}

/** Pages of 12 (spec §9), the next one asked for with the cursor of the last. */
const itemsInfiniteOptions = (ws: string, query: ListQuery) =>
  infiniteQueryOptions({
    queryKey: itemKeys.list(ws, query),
    queryFn: ({ pageParam, signal }) => getItems(ws, { ...query, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** A list's pages; while a new search text loads, the last answer stays on screen (`isPlaceholderData`). */
export const useItems = (ws: string, query: ListQuery) =>
  useInfiniteQuery({ ...itemsInfiniteOptions(ws, query), placeholderData: keepPreviousData });
