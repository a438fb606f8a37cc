import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  PostalAddressBody,
  Sender,
  SendingDomain,
  type PatchSenderBody,
  type SenderBody,
} from '@shared/api/senders';
import { apiRequest } from '@web/lib/api-client';
import { sendersPath, sendersQueryKey } from '@web/lib/senders';

const senderPath = (workspaceId: string, id: string) =>
  `${sendersPath(workspaceId)}/${encodeURIComponent(id)}`;

/** Every change here refreshes the one sending query. */
function useSendingMutation<V, R>(workspaceId: string, mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: sendersQueryKey(workspaceId) }),
  });
}

/** POST …/senders. Invalidates: the sending settings. */
export const useCreateSender = (workspaceId: string) =>
  useSendingMutation(workspaceId, (body: SenderBody) =>
    apiRequest(sendersPath(workspaceId), { method: 'POST', body, schema: Sender }),
  );

/** PATCH …/senders/{id}. Invalidates: the sending settings. */
export const useUpdateSender = (workspaceId: string) =>
  useSendingMutation(workspaceId, ({ id, patch }: { id: string; patch: PatchSenderBody }) =>
    apiRequest(senderPath(workspaceId, id), { method: 'PATCH', body: patch, schema: Sender }),
  );

/** DELETE …/senders/{id}. Invalidates: the sending settings. */
export const useDeleteSender = (workspaceId: string) =>
  useSendingMutation(workspaceId, (id: string) =>
    apiRequest(senderPath(workspaceId, id), { method: 'DELETE' }),
  );

/** POST …/senders/{id}/verify: checks the sender's domain in DNS. Invalidates: the sending settings. */
export const useVerifySender = (workspaceId: string) =>
  useSendingMutation(workspaceId, (id: string) =>
    apiRequest(`${senderPath(workspaceId, id)}/verify`, { method: 'POST', schema: SendingDomain }),
  );

/** PUT …/senders/postal-address. Invalidates: the sending settings. */
export const useSavePostalAddress = (workspaceId: string) =>
  useSendingMutation(workspaceId, (body: PostalAddressBody) =>
    apiRequest(`${sendersPath(workspaceId)}/postal-address`, {
      method: 'PUT',
      body,
      schema: PostalAddressBody,
    }),
  );
