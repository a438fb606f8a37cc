import { useQuery } from '@tanstack/react-query';
import { SendingSettings } from '@shared/api/senders';
import { apiRequest } from '@web/lib/api-client';

export const sendersQueryKey = (workspaceId: string) => ['workspaces', workspaceId, 'senders'] as const;
export const sendersPath = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/senders`;

/**
 * GET …/senders: the senders, their domains with the records to publish, and the postal address. Settings
 * › Sending and the campaign's sender field share it.
 */
export const useSending = (workspaceId: string, enabled = true) =>
  useQuery({
    queryKey: sendersQueryKey(workspaceId),
    queryFn: ({ signal }) => apiRequest(sendersPath(workspaceId), { schema: SendingSettings, signal }),
    enabled: enabled && !!workspaceId,
  });
