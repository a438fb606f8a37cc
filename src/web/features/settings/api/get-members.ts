import { queryOptions, useQuery } from '@tanstack/react-query';
import { MemberList } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

export const membersQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'members'] as const;

const getMembers = (workspaceId: string) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members`, { schema: MemberList });

const membersQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: membersQueryKey(workspaceId), queryFn: () => getMembers(workspaceId) });

/** GET /api/v1/workspaces/{id}/members: members and pending invitations. */
export const useMembers = (workspaceId: string) => useQuery(membersQueryOptions(workspaceId));
