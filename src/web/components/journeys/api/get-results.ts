import { useQuery } from '@tanstack/react-query';
import { JourneyResults } from '@shared/api/journeys';
import { apiRequest } from '@web/lib/api-client';
import { journeyKeys, journeyPath } from './journey-keys';

/** How often a running journey's counts are asked again while its screen is open. */
const RUNNING_POLL_MS = 2000;

/**
 * GET …/journeys/{id}/results: per started version and step, the profiles entered, waiting and passed;
 * asked again every two seconds while the journey runs.
 */
export const useJourneyResults = (workspaceId: string, journeyId: string | null) =>
  useQuery({
    queryKey: journeyKeys.results(workspaceId, journeyId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(`${journeyPath(workspaceId, journeyId!)}/results`, { schema: JourneyResults, signal }),
    enabled: journeyId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? RUNNING_POLL_MS : false),
    refetchIntervalInBackground: false,
  });
