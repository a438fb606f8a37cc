import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeletedItem } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** DELETE the item and its stage copies; its history stays (DESIGN §4). */
const deleteItem = ({ ws, schema, id }: { ws: string; schema: string; id: string }) =>
  apiRequest(itemPath(ws, schema, id), { method: 'DELETE', schema: DeletedItem });

export function useDeleteItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteItem,
    onSuccess: (_deleted, { ws, schema, id }) => {
      client.removeQueries({ queryKey: itemKeys.detail(ws, schema, id) });
      void client.invalidateQueries({ queryKey: itemKeys.lists(ws) });
      void client.invalidateQueries({ queryKey: itemKeys.search(ws, schema) });
    },
  });
}
