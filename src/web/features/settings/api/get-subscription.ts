import { useQuery } from '@tanstack/react-query';
import { Subscription } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

const subscriptionQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'subscription'] as const;

const getSubscription = (workspaceId: string) =>
  apiRequest(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}/subscription`, { schema: Subscription });

/** GET /api/v1/workspaces/{id}/subscription: plan and usage. */
export const useSubscription = (workspaceId: string) =>
  useQuery({ queryKey: subscriptionQueryKey(workspaceId), queryFn: () => getSubscription(workspaceId) });
