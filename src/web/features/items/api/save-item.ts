import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Item, type Item as ItemType } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath, itemsPath } from './keys';

interface SaveItemInput {
  ws: string;
  schema: string;
  /** 'new' creates the item. */
  id: string;
  data: Record<string, unknown>;
  /** The version the edit was based on; a stale one answers 409 and changes nothing. */
  baseVersion?: number;
}

export const NEW_ITEM_ID = 'new';

/**
 * POST (id 'new') or PUT an item with `{data, baseVersion}`. The server decides whether the data is
 * stored with `__hasErrors` (schemas that allow saving with errors), so the body carries nothing else.
 */
function saveItem({ ws, schema, id, data, baseVersion }: SaveItemInput): Promise<ItemType> {
  if (id === NEW_ITEM_ID)
    return apiRequest(itemsPath(ws, schema), { method: 'POST', body: { data }, schema: Item });
  return apiRequest(itemPath(ws, schema, id), { method: 'PUT', body: { data, baseVersion }, schema: Item });
}

/** After any change to an item: its cache entry, every list and everything under the item. */
function afterItemChange(client: QueryClient, ws: string, item: ItemType) {
  client.setQueryData(itemKeys.detail(ws, item.schema, item.id), item);
  void client.invalidateQueries({ queryKey: itemKeys.lists(ws) });
  void client.invalidateQueries({ queryKey: itemKeys.search(ws, item.schema) });
  void client.invalidateQueries({
    queryKey: itemKeys.detail(ws, item.schema, item.id),
    predicate: (query) => query.queryKey.length > itemKeys.detail(ws, item.schema, item.id).length,
  });
}

export function useSaveItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveItem,
    onSuccess: (item, input) => afterItemChange(client, input.ws, item),
  });
}
