import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Member, type PatchMemberBody } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';
import { workspaceQueryKey, workspacesQueryKey } from '@web/lib/workspace';
import { membersQueryKey } from './get-members';

export type MemberPatch = z.input<typeof PatchMemberBody>;

const updateMember = (workspaceId: string, userId: string, body: MemberPatch) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body,
    schema: Member,
  });

/**
 * PATCH …/members/{userId}. Invalidates: the member list, and the workspace (the caller's own
 * permissions may have changed) and the workspace list.
 */
export function useUpdateMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, patch }: { userId: string; patch: MemberPatch }) =>
      updateMember(workspaceId, userId, patch),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: membersQueryKey(workspaceId) });
      void client.invalidateQueries({ queryKey: workspaceQueryKey(workspaceId), exact: true });
      void client.invalidateQueries({ queryKey: workspacesQueryKey, exact: true });
    },
  });
}
