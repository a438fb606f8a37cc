import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RecipientSettings, type RecipientSettingsBody } from '@shared/api/senders';
import { apiRequest } from '@web/lib/api-client';
import { sendersPath, sendersQueryKey } from '@web/lib/senders';

/**
 * PUT …/senders/recipients: where campaigns read addresses and whether unknown consent is mailed.
 * Invalidates: the sending settings and every campaign's readiness (a workspace setting).
 */
export function useSaveRecipients(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipientSettingsBody) =>
      apiRequest(`${sendersPath(workspaceId)}/recipients`, {
        method: 'PUT',
        body,
        schema: RecipientSettings,
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: sendersQueryKey(workspaceId) });
      await client.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'campaigns'] });
    },
  });
}
