import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JourneyStateAnswer } from '@shared/api/journeys';
import { apiRequest } from '@web/lib/api-client';
import { journeyKeys, journeyPath } from './journey-keys';

export type JourneyAction = 'start' | 'pause' | 'resume' | 'stop';

/** POST …/journeys/{id}/start|pause|resume|stop; the results (state and counts) are asked again. */
export function useControlJourney(workspaceId: string, journeyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: JourneyAction) =>
      apiRequest(`${journeyPath(workspaceId, journeyId)}/${action}`, {
        method: 'POST',
        schema: JourneyStateAnswer,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: journeyKeys.results(workspaceId, journeyId) }),
  });
}
