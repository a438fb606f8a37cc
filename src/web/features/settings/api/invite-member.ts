import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Invitation, type InviteBody } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';
import { membersQueryKey } from './get-members';

const inviteMember = (workspaceId: string, body: InviteBody) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members/invitations`, {
    method: 'POST',
    body,
    schema: Invitation,
  });

/** POST …/members/invitations. Invalidates: the member list. */
export function useInviteMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteBody) => inviteMember(workspaceId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: membersQueryKey(workspaceId) }),
  });
}
