import { useQuery } from '@tanstack/react-query';
import { JourneyStartPlan } from '@shared/api/journeys';
import { apiRequest } from '@web/lib/api-client';
import { journeyKeys, journeyPath } from './journey-keys';

/**
 * GET …/journeys/{id}/start-plan: per older running version and step, the profiles waiting there and
 * where they go by default when the current version starts; asked fresh each time the dialog opens.
 */
export const useJourneyStartPlan = (workspaceId: string, journeyId: string) =>
  useQuery({
    queryKey: journeyKeys.startPlan(workspaceId, journeyId),
    queryFn: ({ signal }) =>
      apiRequest(`${journeyPath(workspaceId, journeyId)}/start-plan`, { schema: JourneyStartPlan, signal }),
    staleTime: 0,
    gcTime: 0,
  });
