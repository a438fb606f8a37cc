import { useQuery } from '@tanstack/react-query';
import { MemberList } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

/** GET …/members, for the audit log's user filter (the same query key as the users screen's). */
export const useAuditMembers = (workspaceId: string) =>
  useQuery({
    queryKey: ['workspaces', workspaceId, 'members'] as const,
    queryFn: () =>
      apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members`, { schema: MemberList }),
  });
