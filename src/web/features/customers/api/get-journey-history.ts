import { useQueries, useQuery } from '@tanstack/react-query';
import { ProfileEventsPage } from '@shared/api/customers';
import { ItemList } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { JOURNEY_EVENT_KEYS, journeyRuns } from '../journey-history';
import { profileKeys, profilesUrl } from './get-profiles';

/** The most journey events of each kind read for one profile. */
const EVENTS_READ = 100;

/** The names the journey's steps are given in its current version, by step id. */
function stepNamesOf(definition: unknown): Map<string, string> {
  try {
    const { steps } = JSON.parse(typeof definition === 'string' ? definition : '{}') as {
      steps?: { id?: unknown; name?: unknown }[];
    };
    return new Map(
      (Array.isArray(steps) ? steps : [])
        .filter((step) => typeof step.id === 'string' && typeof step.name === 'string' && step.name.trim())
        .map((step) => [step.id as string, (step.name as string).trim()]),
    );
  } catch {
    return new Map();
  }
}

/**
 * A profile's journey runs, from its latest journey events (GET …/profiles/{id}/events, one key at a
 * time), with the journeys' names and their steps' from the workspace's journeys.
 */
export function useJourneyHistory(ws: string, id: string) {
  const pages = useQueries({
    queries: JOURNEY_EVENT_KEYS.map((event) => ({
      queryKey: [...profileKeys.events(ws, id, event), 'journeys'],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiRequest(
          `${profilesUrl(ws)}/${encodeURIComponent(id)}/events?event=${event}&limit=${EVENTS_READ}`,
          { schema: ProfileEventsPage, signal },
        ),
    })),
  });
  const journeys = useQuery({
    queryKey: ['workspaces', ws, 'items', 'journey', 'names'],
    queryFn: ({ signal }) =>
      apiRequest(`/api/v1/workspaces/${encodeURIComponent(ws)}/items/journey?view=all&limit=100`, {
        schema: ItemList,
        signal,
      }),
  });
  const error = pages.find((page) => page.error)?.error ?? null;
  const isPending = pages.some((page) => page.isPending);
  const runs = isPending ? [] : journeyRuns(pages.flatMap((page) => page.data?.events ?? []));
  const items = journeys.data?.items ?? [];
  const names = new Map(
    items.map((item) => [item.id, typeof item.data.name === 'string' ? item.data.name : item.id]),
  );
  const stepNames = new Map(items.map((item) => [item.id, stepNamesOf(item.data.definition)]));
  return { runs, names, stepNames, error, isPending };
}
