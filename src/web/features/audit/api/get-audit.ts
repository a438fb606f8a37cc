import { useInfiniteQuery } from '@tanstack/react-query';
import { AuditPage } from '@shared/api/delivery';
import { apiRequest } from '@web/lib/api-client';

export interface AuditFilters {
  user?: string;
  action?: string;
  from?: string;
  to?: string;
}

const auditQueryKey = (workspaceId: string, filters: AuditFilters) =>
  ['workspaces', workspaceId, 'audit', filters] as const;

/** GET …/audit: pages of the audit log, newest first, with the given filters. */
export const useAudit = (workspaceId: string, filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: auditQueryKey(workspaceId, filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: '50' });
      for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/audit?${query}`, {
        schema: AuditPage,
      });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
