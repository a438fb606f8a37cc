import { queryOptions, useQuery } from '@tanstack/react-query';
import { Item } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** GET /api/v1/workspaces/{ws}/items/{schema}/{id}; 404 'Instance not found'. */
const getItem = (ws: string, schema: string, id: string) =>
  apiRequest(itemPath(ws, schema, id), { schema: Item });

export const itemQueryOptions = (ws: string, schema: string, id: string) =>
  queryOptions({
    queryKey: itemKeys.detail(ws, schema, id),
    queryFn: () => getItem(ws, schema, id),
    staleTime: 5_000,
  });

export const useItem = (ws: string, schema: string, id: string, enabled = true) =>
  useQuery({ ...itemQueryOptions(ws, schema, id), enabled });
