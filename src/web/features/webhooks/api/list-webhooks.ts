import { useQuery } from '@tanstack/react-query';
import { WebhookDeliveryList, WebhookList } from '@shared/api/webhooks';
import { apiRequest } from '@web/lib/api-client';

export const webhooksQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'webhooks'] as const;
export const webhooksPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/webhooks`;

/** GET …/webhooks: the workspace's webhooks, without their secrets. */
export const useWebhooks = (workspaceId: string) =>
  useQuery({
    queryKey: webhooksQueryKey(workspaceId),
    queryFn: () => apiRequest(webhooksPath(workspaceId), { schema: WebhookList }),
  });

export const deliveriesQueryKey = (workspaceId: string, webhookId: string) =>
  [...webhooksQueryKey(workspaceId), webhookId, 'deliveries'] as const;

/** GET …/webhooks/{id}/deliveries: the delivery log, refreshed every 2 s while it is shown. */
export const useDeliveries = (workspaceId: string, webhookId: string | null) =>
  useQuery({
    queryKey: deliveriesQueryKey(workspaceId, webhookId ?? ''),
    queryFn: () =>
      apiRequest(`${webhooksPath(workspaceId)}/${encodeURIComponent(webhookId!)}/deliveries`, {
        schema: WebhookDeliveryList,
      }),
    enabled: webhookId !== null,
    refetchInterval: 2000,
  });
