import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Item } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

interface RestoreInput {
  ws: string;
  schema: string;
  id: string;
  num: number;
  /** The current version the restore is based on (409 when someone saved since). */
  baseVersion: number;
}

const restoreVersion = ({ ws, schema, id, num, baseVersion }: RestoreInput) =>
  apiRequest(`${itemPath(ws, schema, id)}/history/${num}/restore`, {
    method: 'POST',
    body: { baseVersion },
    schema: Item,
  });

/** POST …/history/{num}/restore: a new version with that version's data. Invalidates: everything about the item. */
export function useRestoreVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: restoreVersion,
    onSuccess: (item, { ws }) => {
      client.setQueryData(itemKeys.detail(ws, item.schema, item.id), item);
      void client.invalidateQueries({ queryKey: itemKeys.all(ws) });
    },
  });
}
