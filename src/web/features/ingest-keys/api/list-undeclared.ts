import { useQuery } from '@tanstack/react-query';
import { UndeclaredList } from '@shared/api/undeclared';
import { apiRequest } from '@web/lib/api-client';

export const undeclaredQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'undeclared'] as const;
export const undeclaredPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/undeclared`;

const listUndeclared = (workspaceId: string) =>
  apiRequest(undeclaredPath(workspaceId), { schema: UndeclaredList });

/** GET …/undeclared: what websites sent that the workspace has not declared, with counts and times. */
export const useUndeclared = (workspaceId: string) =>
  useQuery({ queryKey: undeclaredQueryKey(workspaceId), queryFn: () => listUndeclared(workspaceId) });
