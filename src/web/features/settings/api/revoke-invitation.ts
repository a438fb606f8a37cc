import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OkResponse } from '@shared/api/auth';
import { apiRequest } from '@web/lib/api-client';
import { membersQueryKey } from './get-members';

const revokeInvitation = (workspaceId: string, email: string) =>
  apiRequest(
    `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members/invitations/${encodeURIComponent(email)}`,
    { method: 'DELETE', schema: OkResponse },
  );

/** DELETE …/members/invitations/{email}. Invalidates: the member list. */
export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => revokeInvitation(workspaceId, email),
    onSuccess: () => client.invalidateQueries({ queryKey: membersQueryKey(workspaceId) }),
  });
}
