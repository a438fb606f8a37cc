import { LRUCache } from 'lru-cache';
import {
  PLACES_MESSAGES,
  PLACES_SETTING,
  type PlaceAddress,
  type PlacesConfig as PlacesConfigAnswer,
  type PlaceSuggestions,
} from '@shared/api/places';
import { withGeohash } from '@shared/geo/address';
import type { PlacesConfig } from '../config';
import type { AppContext } from '../context';
import { notConfigured, notFound, providerFailed, rateLimited } from '../http/errors';
import { createGooglePlaces } from '../providers/google-places';
import { createNominatim } from '../providers/nominatim';
import { PlacesError, type PlacesProvider } from '../providers/places';
import type { WorkspaceAccess } from '../workspaces/access';

/**
 * Address lookup: the provider the configuration names (Google Places, else a Nominatim
 * geocoder, else none), its answers cached briefly and its use rate limited per workspace.
 */
interface Places {
  provider: PlacesProvider | null;
  cache: LRUCache<string, PlaceSuggestions | PlaceAddress>;
  /** Per workspace: the start of the current minute and the lookups made in it. */
  windows: Map<string, { start: number; count: number }>;
}

const RATE_WINDOW_MS = 60_000;
const placesOf = new WeakMap<PlacesConfig, Places>();

function providerOf(config: AppContext['config']): PlacesProvider | null {
  const places = config.places;
  if (places.googleApiKey)
    return createGooglePlaces({ apiKey: places.googleApiKey, baseUrl: places.googleUrl });
  if (places.geocoderUrl) {
    return createNominatim({ baseUrl: places.geocoderUrl, userAgent: `Marquee (${config.publicUrl})` });
  }
  return null;
}

function placesFor(ctx: AppContext): Places {
  let places = placesOf.get(ctx.config.places);
  if (!places) {
    places = {
      provider: providerOf(ctx.config),
      cache: new LRUCache({ max: 2000, ttl: Math.max(1, ctx.config.places.cacheTtlMs) }),
      windows: new Map(),
    };
    placesOf.set(ctx.config.places, places);
  }
  return places;
}

/** What the address field needs to know: which lookup answers (if any) and where map tiles come from. */
export function placesConfig(ctx: AppContext): PlacesConfigAnswer {
  return { provider: placesFor(ctx).provider?.name ?? null, tileUrl: ctx.config.places.tileUrl ?? null };
}

function requireProvider(places: Places) {
  if (!places.provider) throw notConfigured(PLACES_MESSAGES.notConfigured, PLACES_SETTING);
  return places.provider;
}

/** Counts a lookup against the workspace's minute; 429 past PLACES_RATE_LIMIT. */
function takeLookup(ctx: AppContext, places: Places, workspaceId: string) {
  const now = Date.now();
  let window = places.windows.get(workspaceId);
  if (!window || now - window.start >= RATE_WINDOW_MS) {
    if (places.windows.size > 10_000) places.windows.clear();
    window = { start: now, count: 0 };
    places.windows.set(workspaceId, window);
  }
  if (window.count >= ctx.config.places.rateLimit) {
    const retryAfter = Math.ceil((window.start + RATE_WINDOW_MS - now) / 1000);
    throw rateLimited(PLACES_MESSAGES.rateLimited, retryAfter);
  }
  window.count++;
}

async function fromProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PlacesError) throw providerFailed(`${PLACES_MESSAGES.providerFailed}: ${err.message}`);
    throw err;
  }
}

/** Suggestions for what the user typed, biased by the browser's position when given. */
export async function autocomplete(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: { q: string; lat?: number; lng?: number },
): Promise<PlaceSuggestions> {
  const places = placesFor(ctx);
  const provider = requireProvider(places);
  const bias =
    query.lat !== undefined && query.lng !== undefined
      ? { latitude: query.lat, longitude: query.lng }
      : undefined;
  // Nearby positions share answers: the bias is rounded to about a kilometre.
  const key = `q:${query.q.toLowerCase()}|${bias ? `${bias.latitude.toFixed(2)},${bias.longitude.toFixed(2)}` : ''}`;
  const cached = places.cache.get(key);
  if (cached) return cached as PlaceSuggestions;
  takeLookup(ctx, places, access.workspace.id);
  const lookup = await fromProvider(() => provider.autocomplete(query.q, bias));
  for (const [placeId, address] of lookup.addresses ?? []) places.cache.set(`p:${placeId}`, address);
  const answer = { suggestions: lookup.suggestions };
  places.cache.set(key, answer);
  return answer;
}

/** The spec's address value of a suggestion, with its geohash. */
export async function placeDetails(
  ctx: AppContext,
  access: WorkspaceAccess,
  placeId: string,
): Promise<PlaceAddress> {
  const places = placesFor(ctx);
  const provider = requireProvider(places);
  const key = `p:${placeId}`;
  let address = places.cache.get(key) as PlaceAddress | undefined;
  if (!address) {
    takeLookup(ctx, places, access.workspace.id);
    const found = await fromProvider(() => provider.details(placeId));
    if (!found) throw notFound(PLACES_MESSAGES.placeNotFound);
    places.cache.set(key, (address = found));
  }
  return withGeohash(address) as PlaceAddress;
}
