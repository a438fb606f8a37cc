import { queryOptions, useQuery } from '@tanstack/react-query';
import { Approvals } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

/** Approval state of the current version and the record per version. */
const getApprovals = (ws: string, schema: string, id: string) =>
  apiRequest(`${itemPath(ws, schema, id)}/approvals`, { schema: Approvals });

export const approvalsQueryOptions = (ws: string, schema: string, id: string) =>
  queryOptions({ queryKey: itemKeys.approvals(ws, schema, id), queryFn: () => getApprovals(ws, schema, id) });

export const useApprovals = (ws: string, schema: string, id: string, enabled = true) =>
  useQuery({ ...approvalsQueryOptions(ws, schema, id), enabled });
