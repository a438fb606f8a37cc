import { z } from 'zod';
import { WorkspaceId } from './workspaces';

/**
 * The HTTP contract of address lookup and geohashes: `/fun/places/…` proxies the places
 * provider configured on the server, `/fun/geohash/neighbours` answers a neighbouring cell.
 */

export const PLACES_MESSAGES = {
  notConfigured: 'Address lookup is not configured: type the address and pick the point on the map',
  rateLimited: 'Too many address lookups in this workspace; try again in a minute',
  placeNotFound: 'Place not found',
  providerFailed: 'The address lookup service failed',
} as const;

/** What switches address lookup on: Google Places' key, or a Nominatim geocoder's URL. */
export const PLACES_SETTING = { setting: 'GOOGLE_PLACES_API_KEY', alternatives: ['GEOCODER_URL'] };
/** What gives the map its tiles; without it the map draws a plain grid. */
export const MAP_TILE_SETTING = { setting: 'MAP_TILE_URL' };

export const PlacesQuery = z.object({
  __marquee_workspace: WorkspaceId.describe('The workspace (spec §7: every /fun/ call carries it)'),
});

const coordinate = (min: number, max: number, name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .min(min, { error: `${name} must be between ${min} and ${max}` })
    .max(max, { error: `${name} must be between ${min} and ${max}` });

export const AutocompleteQuery = PlacesQuery.extend({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, { error: 'q is required' })
    .max(200, { error: 'q holds at most 200 characters' })
    .describe('What the user typed'),
  lat: coordinate(-90, 90, 'lat')
    .optional()
    .describe("Bias: the browser's latitude, when the user allowed it"),
  lng: coordinate(-180, 180, 'lng').optional().describe("Bias: the browser's longitude"),
});
export type AutocompleteQuery = z.input<typeof AutocompleteQuery>;

export const PlaceSuggestion = z.object({
  placeId: z.string().describe('Pass to /fun/places/{placeId}'),
  description: z.string().describe('The whole suggestion as one line'),
  mainText: z.string(),
  secondaryText: z.string(),
});
export type PlaceSuggestion = z.infer<typeof PlaceSuggestion>;

export const PlaceSuggestions = z.object({ suggestions: z.array(PlaceSuggestion) });
export type PlaceSuggestions = z.infer<typeof PlaceSuggestions>;

export const PlaceIdParams = z.object({
  placeId: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]{1,300}$/, { error: PLACES_MESSAGES.placeNotFound })
    .describe('A placeId from autocomplete'),
});

/** Spec §3 Address value, as a lookup answers it (geohash computed by the server). */
export const PlaceAddress = z.object({
  rawAddress: z.string().optional(),
  streetNumber: z.string().optional(),
  streetAddress: z.string().optional(),
  unit: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  county: z.string().optional(),
  neighborhood: z.string().optional(),
  country: z.string().optional(),
  postal_code: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  google_place: z.unknown().optional(),
  geohash: z.record(z.string(), z.string()).optional(),
  geohashes: z.array(z.string()).optional(),
});
export type PlaceAddress = z.infer<typeof PlaceAddress>;

export const PlacesConfig = z.object({
  provider: z
    .enum(['google', 'nominatim'])
    .nullable()
    .describe('Which lookup answers; null: lookup is not configured'),
  tileUrl: z.string().nullable().describe('MAP_TILE_URL, a {z}/{x}/{y} template; null: draw a plain grid'),
});
export type PlacesConfig = z.infer<typeof PlacesConfig>;

export const NeighbourQuery = z.object({
  hash: z.string().max(100).describe('A geohash, 1 to 12 characters'),
  direction: z.string().max(20).describe('n, s, e or w'),
});

export const Neighbour = z.object({
  hash: z.string(),
  direction: z.enum(['n', 's', 'e', 'w']),
  neighbour: z.string().nullable().describe('The adjacent cell; null beyond a pole'),
});
