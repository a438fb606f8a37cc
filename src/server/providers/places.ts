import type { PlaceAddress, PlaceSuggestion } from '@shared/api/places';

/** What a places back end (Google Places, an OpenStreetMap geocoder) offers the address field. */
export interface PlacesProvider {
  readonly name: 'google' | 'nominatim';
  /** Suggestions for what the user typed, biased towards a point when given. */
  autocomplete(query: string, bias?: { latitude: number; longitude: number }): Promise<PlaceLookup>;
  /** The address value of a suggestion, or null when the provider knows no such place. */
  details(placeId: string): Promise<PlaceAddress | null>;
}

interface PlaceLookup {
  suggestions: PlaceSuggestion[];
  /** Addresses the provider answered along with the suggestions (so details need no second call). */
  addresses?: Map<string, PlaceAddress>;
}

/** The provider could not be reached or answered an error; the message says which and why. */
export class PlacesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlacesError';
  }
}

/** A JSON call with a time-out; a failure becomes a PlacesError naming the service. */
export async function fetchJson(
  service: string,
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 10_000) });
  } catch (err) {
    throw new PlacesError(`${service} could not be reached: ${(err as Error).message}`);
  }
  const body: unknown = await response.json().catch(() => null);
  return { status: response.status, body };
}

/** Strings only, trimmed; empty parts are left out so the address value holds no empty keys. */
export function compactAddress(address: Record<string, unknown>): PlaceAddress {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(address)) {
    if (typeof value === 'string' && value.trim()) out[key] = value.trim();
    else if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
    else if (value && typeof value === 'object') out[key] = value;
  }
  return out as PlaceAddress;
}
