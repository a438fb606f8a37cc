import { queryOptions, useQuery } from '@tanstack/react-query';
import { MemberList } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

/** Same key as the settings screens use, so both share one cached copy. */
const membersQueryKey = (ws: string) => ['workspaces', ws, 'members'] as const;

/** GET /api/v1/workspaces/{ws}/members: the names shown for "updated by". */
const getMembers = (ws: string) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(ws)}/members`, { schema: MemberList });

const membersQueryOptions = (ws: string) =>
  queryOptions({ queryKey: membersQueryKey(ws), queryFn: () => getMembers(ws), staleTime: 60_000 });

export const useMembers = (ws: string) => useQuery(membersQueryOptions(ws));

/** The display name of a member by user id, for lines like 'Scheduled … by {name}'. */
export function useMemberName(ws: string) {
  const members = useMembers(ws).data?.members;
  return (userId: string | null) =>
    members?.find((m) => m.userId === userId)?.displayName.trim() || 'a former member';
}
