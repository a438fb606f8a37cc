import { queryOptions, useQuery } from '@tanstack/react-query';
import { PlaceAddress, PlacesConfig, PlaceSuggestions } from '@shared/api/places';
import { apiRequest } from '@web/lib/api-client';

/**
 * Fetchers and hooks of the address lookup, beside the address field that uses them: the
 * item form is a shared component and may not import a feature.
 */
const WORKSPACE_PARAM = '__marquee_workspace';
const placesKey = (ws: string) => ['workspaces', ws, 'places'] as const;

/** GET /fun/places/config: which lookup answers, and the map's tile URL. */
const placesConfigOptions = (ws: string) =>
  queryOptions({
    queryKey: [...placesKey(ws), 'config'],
    queryFn: ({ signal }) =>
      apiRequest(`/fun/places/config?${new URLSearchParams({ [WORKSPACE_PARAM]: ws })}`, {
        schema: PlacesConfig,
        signal,
      }),
    staleTime: 10 * 60_000,
  });

/** Without a workspace (previews, tests) lookup is simply not configured. */
export const usePlacesConfig = (ws: string) => useQuery({ ...placesConfigOptions(ws), enabled: !!ws });

export interface Bias {
  latitude: number;
  longitude: number;
}

/** GET /fun/places/autocomplete?q&lat&lng: suggestions, biased by the browser's position when known. */
function searchPlaces(ws: string, q: string, bias: Bias | null, signal?: AbortSignal) {
  const params = new URLSearchParams({ q, [WORKSPACE_PARAM]: ws });
  if (bias) {
    params.set('lat', String(bias.latitude));
    params.set('lng', String(bias.longitude));
  }
  return apiRequest(`/fun/places/autocomplete?${params}`, { schema: PlaceSuggestions, signal });
}

/**
 * Suggestions for a (debounced) term. A new term makes the previous request's query unused, and
 * TanStack Query aborts it through its signal.
 */
export const usePlaceSearch = (ws: string, q: string, bias: Bias | null, enabled: boolean) =>
  useQuery({
    queryKey: [...placesKey(ws), 'search', q, bias?.latitude ?? null, bias?.longitude ?? null],
    queryFn: ({ signal }) => searchPlaces(ws, q, bias, signal),
    enabled: enabled && !!ws && q.length >= 2,
    staleTime: 60_000,
  });

/** GET /fun/places/{placeId}: the spec's address value of a suggestion. */
export const getPlace = (ws: string, placeId: string) =>
  apiRequest(`/fun/places/${encodeURIComponent(placeId)}?${new URLSearchParams({ [WORKSPACE_PARAM]: ws })}`, {
    schema: PlaceAddress,
  });
