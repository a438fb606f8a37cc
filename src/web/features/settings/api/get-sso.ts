import { useQuery } from '@tanstack/react-query';
import { SsoSettings } from '@shared/api/sso';
import { apiRequest } from '@web/lib/api-client';

export const ssoQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'sso'] as const;
export const ssoPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sso`;

/** GET …/sso: the redirect URI to register and the saved connection, without its secret. */
export const useSsoSettings = (workspaceId: string) =>
  useQuery({
    queryKey: ssoQueryKey(workspaceId),
    queryFn: () => apiRequest(ssoPath(workspaceId), { schema: SsoSettings }),
  });
