import { queryOptions, useQuery } from '@tanstack/react-query';
import { HistoryList, HistoryVersion } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** The change log, newest version first. */
const getHistory = (ws: string, schema: string, id: string) =>
  apiRequest(`${itemPath(ws, schema, id)}/history`, { schema: HistoryList });

export const historyQueryOptions = (ws: string, schema: string, id: string) =>
  queryOptions({ queryKey: itemKeys.history(ws, schema, id), queryFn: () => getHistory(ws, schema, id) });

export const useHistory = (ws: string, schema: string, id: string, enabled = true) =>
  useQuery({ ...historyQueryOptions(ws, schema, id), enabled });

/** The full data of one version, to show or compare. Versions never change, so they never go stale. */
const getVersion = (ws: string, schema: string, id: string, num: number) =>
  apiRequest(`${itemPath(ws, schema, id)}/history/${num}`, { schema: HistoryVersion });

export const useVersion = (ws: string, schema: string, id: string, num: number | undefined) =>
  useQuery({
    queryKey: itemKeys.version(ws, schema, id, num ?? 0),
    queryFn: () => getVersion(ws, schema, id, num!),
    enabled: num !== undefined && num > 0,
    staleTime: Infinity,
  });
