import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JourneyStateAnswer, type StartJourneyBody } from '@shared/api/journeys';
import { apiRequest } from '@web/lib/api-client';
import { journeyKeys, journeyPath } from './journey-keys';

export type JourneyAction = 'start' | 'pause' | 'resume' | 'stop';

/**
 * POST …/journeys/{id}/start|pause|resume|stop (a start with its body: the migration of the older
 * versions' runs); the results (state and counts) are asked again.
 */
export function useControlJourney(workspaceId: string, journeyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: { action: JourneyAction; body?: StartJourneyBody }) =>
      apiRequest(`${journeyPath(workspaceId, journeyId)}/${action}`, {
        method: 'POST',
        schema: JourneyStateAnswer,
        ...(body ? { body } : {}),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: journeyKeys.results(workspaceId, journeyId) }),
  });
}
