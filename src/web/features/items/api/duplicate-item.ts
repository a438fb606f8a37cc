import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Item } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** POST …/items/{schema}/{id}/duplicate: a new draft copy of the item, answered as the new item. */
const duplicateItem = ({ ws, schema, id }: { ws: string; schema: string; id: string }) =>
  apiRequest(`${itemPath(ws, schema, id)}/duplicate`, { method: 'POST', schema: Item });

export function useDuplicateItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: duplicateItem,
    onSuccess: (copy, { ws }) => {
      client.setQueryData(itemKeys.detail(ws, copy.schema, copy.id), copy);
      void client.invalidateQueries({ queryKey: itemKeys.lists(ws) });
      void client.invalidateQueries({ queryKey: itemKeys.search(ws, copy.schema) });
    },
  });
}
