import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CreatedWebhook,
  WebhookDelivery,
  WebhookSummary,
  type CreateWebhookBody,
  type PatchWebhookBody,
} from '@shared/api/webhooks';
import { apiRequest } from '@web/lib/api-client';
import { deliveriesQueryKey, webhooksPath, webhooksQueryKey } from './list-webhooks';

/** POST …/webhooks: answers the signing secret once. Invalidates: the webhook list. */
export function useCreateWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) =>
      apiRequest(webhooksPath(workspaceId), { method: 'POST', body, schema: CreatedWebhook }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQueryKey(workspaceId) }),
  });
}

/** PATCH …/webhooks/{id} (e.g. the active flag). Invalidates: the webhook list. */
export function useUpdateWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PatchWebhookBody }) =>
      apiRequest(`${webhooksPath(workspaceId)}/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: patch,
        schema: WebhookSummary,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQueryKey(workspaceId) }),
  });
}

/** DELETE …/webhooks/{id}. Invalidates: the webhook list. */
export function useDeleteWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`${webhooksPath(workspaceId)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksQueryKey(workspaceId) }),
  });
}

/** POST …/deliveries/{deliveryId}/redeliver. Invalidates: that webhook's log. */
export function useRedeliver(workspaceId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiRequest(
        `${webhooksPath(workspaceId)}/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
        { method: 'POST', schema: WebhookDelivery },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesQueryKey(workspaceId, webhookId) }),
  });
}
