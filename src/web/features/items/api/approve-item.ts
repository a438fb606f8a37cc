import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Approvals } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

interface ApproveInput {
  ws: string;
  schema: string;
  id: string;
  roleId: string;
  /** The version being approved; a stale one answers 409. */
  version: number;
  comment?: string;
}

const approveItem = ({ ws, schema, id, roleId, version, comment }: ApproveInput) =>
  apiRequest(`${itemPath(ws, schema, id)}/approvals`, {
    method: 'POST',
    body: { roleId, version, ...(comment?.trim() ? { comment: comment.trim() } : {}) },
    schema: Approvals,
  });

/** Approves as one role; the item (its approval chips) and every list change with it. */
export function useApproveItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: approveItem,
    onSuccess: (approvals, { ws, schema, id }) => {
      client.setQueryData(itemKeys.approvals(ws, schema, id), approvals);
      void client.invalidateQueries({ queryKey: itemKeys.detail(ws, schema, id), exact: true });
      void client.invalidateQueries({ queryKey: itemKeys.lists(ws) });
    },
  });
}
