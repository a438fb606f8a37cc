import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WorkspaceTwoFactor } from '@shared/api/two-factor';
import { apiRequest } from '@web/lib/api-client';

const queryKey = (workspaceId: string) => ['workspaces', workspaceId, 'two-factor'] as const;
const path = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/two-factor`;

/** GET …/two-factor: whether members must have two-factor sign-in. */
export const useTwoFactorRequirement = (workspaceId: string) =>
  useQuery({
    queryKey: queryKey(workspaceId),
    queryFn: () => apiRequest(path(workspaceId), { schema: WorkspaceTwoFactor }),
  });

/** PUT …/two-factor. Invalidates: the requirement. */
export function useSetTwoFactorRequirement(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      apiRequest(path(workspaceId), { method: 'PUT', body: { required }, schema: WorkspaceTwoFactor }),
    onSuccess: (answer) => client.setQueryData(queryKey(workspaceId), answer),
  });
}
