import type { QueryClient } from '@tanstack/react-query';
import { Item } from '@shared/api/items';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';
import { apiRequest } from '@web/lib/api-client';

export const itemsUrl = (workspaceId: string, schema: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/items/${encodeURIComponent(schema)}`;

/** POST /api/v1/workspaces/{id}/items/marquee-assets-image-set: one new image set. */
export const createImageSet = (workspaceId: string, data: Record<string, unknown>) =>
  apiRequest(itemsUrl(workspaceId, IMAGE_SET_SCHEMA), { method: 'POST', body: { data }, schema: Item });

/**
 * Every cached item list of the workspace. The item screens own their query keys; any key naming
 * 'items' and this workspace is a list or an item that may now show the new image sets.
 */
export function invalidateWorkspaceItems(client: QueryClient, workspaceId: string) {
  return client.invalidateQueries({
    predicate: (query) =>
      query.queryKey.includes(workspaceId) &&
      query.queryKey.some((part) => part === 'items' || part === 'image-sets'),
  });
}
