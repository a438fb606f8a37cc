import { queryOptions, useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import {
  Workspace,
  WorkspaceList,
  type PatchWorkspaceBody,
  type Workspace as WorkspaceType,
} from '@shared/api/workspaces';
import { can } from '@shared/permissions/permissions';
import { type CustomerDataRight } from '@shared/permissions/customer-data-rights';
import { apiRequest } from './api-client';
import { withOfflineCopy } from './offline-copy';

/**
 * The workspace queries every workspace screen and the route guards share: the list of the user's
 * workspaces, one workspace, and saving it (basics, roles, oobe).
 */
export const workspacesQueryKey = ['workspaces'] as const;
export const workspaceQueryKey = (id: string) => ['workspaces', id] as const;

const getWorkspaces = async () =>
  (await apiRequest('/api/v1/workspaces', { schema: WorkspaceList })).workspaces;

/** One workspace; without a network, the copy kept when it was last opened (see offline-copy.ts). */
const getWorkspace = (id: string) =>
  withOfflineCopy(`workspace:${id}`, () =>
    apiRequest(`/api/v1/workspaces/${encodeURIComponent(id)}`, { schema: Workspace }),
  );

export const workspacesQueryOptions = () =>
  queryOptions({ queryKey: workspacesQueryKey, queryFn: getWorkspaces });

export const workspaceQueryOptions = (id: string) =>
  queryOptions({ queryKey: workspaceQueryKey(id), queryFn: () => getWorkspace(id), staleTime: 10_000 });

export const useWorkspaces = () => useQuery(workspacesQueryOptions());

const WORKSPACE_NOT_INITIALIZED = 'Workspace not initialized';

/**
 * The workspace of the current URL; its route loader has loaded it, so this never suspends in practice.
 * Used outside a workspace's routes it throws 'Workspace not initialized' (spec §8), a programming error
 * the route's error screen shows rather than a blank page.
 */
export function useCurrentWorkspace(): WorkspaceType {
  const { workspace } = useParams();
  if (!workspace) throw new Error(WORKSPACE_NOT_INITIALIZED);
  return useSuspenseQuery(workspaceQueryOptions(workspace)).data;
}

/**
 * Whether the caller holds a right over customer data in a workspace (false while it loads or without
 * one), so shared components may ask before offering to show a profile's data.
 */
export function useCanCustomerData(workspaceId: string, right: CustomerDataRight): boolean {
  const { data } = useQuery({ ...workspaceQueryOptions(workspaceId), enabled: workspaceId !== '' });
  return data !== undefined && can(data.__permissions, 'customerData', right);
}

const updateWorkspace = (id: string, body: PatchWorkspaceBody) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: Workspace });

/** PATCH /api/v1/workspaces/{id}; writes the answer into the cache and refreshes the workspace list. */
export function useUpdateWorkspace(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchWorkspaceBody) => updateWorkspace(id, body),
    onSuccess: (workspace) => {
      client.setQueryData(workspaceQueryKey(id), workspace);
      void client.invalidateQueries({ queryKey: workspacesQueryKey, exact: true });
    },
  });
}
