import type { PlaceAddress, PlaceSuggestion } from '@shared/api/places';
import { compactAddress, fetchJson, PlacesError, type PlacesProvider } from './places';

/**
 * Google Places API (New): Autocomplete (`POST /v1/places:autocomplete`) and Place Details
 * (`GET /v1/places/{id}`), https://developers.google.com/maps/documentation/places/web-service, at a
 * configurable base URL. The key travels in `X-Goog-Api-Key` and never leaves the server.
 */
export interface GooglePlacesConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

/** Radius of the circle suggestions are biased towards, around the browser's position. */
const BIAS_RADIUS_M = 50_000;
const DETAIL_FIELDS = 'id,formattedAddress,addressComponents,location,displayName,types,googleMapsUri';

interface Text {
  text?: string;
}
interface RawSuggestion {
  placePrediction?: {
    placeId?: string;
    text?: Text;
    structuredFormat?: { mainText?: Text; secondaryText?: Text };
  };
}
interface RawComponent {
  longText?: string;
  shortText?: string;
  types?: string[];
}
interface RawPlace {
  id?: string;
  formattedAddress?: string;
  addressComponents?: RawComponent[];
  location?: { latitude?: number; longitude?: number };
  displayName?: Text;
  types?: string[];
  googleMapsUri?: string;
}

const errorOf = (body: unknown) =>
  (body as { error?: { message?: string } } | null)?.error?.message ?? 'no message';

/** Address components of a place as the spec's address parts. */
function googleAddress(place: RawPlace): PlaceAddress {
  const components = place.addressComponents ?? [];
  const part = (type: string, form: 'longText' | 'shortText' = 'longText') =>
    components.find((c) => c.types?.includes(type))?.[form];
  return compactAddress({
    rawAddress: place.formattedAddress,
    streetNumber: part('street_number'),
    streetAddress: part('route'),
    unit: part('subpremise'),
    neighborhood: part('neighborhood') ?? part('sublocality'),
    city: part('locality') ?? part('postal_town'),
    county: part('administrative_area_level_2'),
    state: part('administrative_area_level_1', 'shortText'),
    postal_code: part('postal_code'),
    country: part('country', 'shortText'),
    latitude: place.location?.latitude,
    longitude: place.location?.longitude,
    google_place: {
      placeId: place.id,
      name: place.displayName?.text,
      types: place.types,
      url: place.googleMapsUri,
    },
  });
}

export function createGooglePlaces(config: GooglePlacesConfig): PlacesProvider {
  const base = `${config.baseUrl.replace(/\/+$/, '')}/v1`;
  const headers = { 'content-type': 'application/json', 'x-goog-api-key': config.apiKey };
  return {
    name: 'google',

    async autocomplete(query, bias) {
      const { status, body } = await fetchJson('Google Places', `${base}/places:autocomplete`, {
        method: 'POST',
        headers,
        timeoutMs: config.timeoutMs,
        body: JSON.stringify({
          input: query,
          ...(bias ? { locationBias: { circle: { center: bias, radius: BIAS_RADIUS_M } } } : {}),
        }),
      });
      if (status !== 200) throw new PlacesError(`Google Places answered ${status}: ${errorOf(body)}`);
      const raw = ((body as { suggestions?: RawSuggestion[] } | null)?.suggestions ?? []).flatMap((s) =>
        s.placePrediction?.placeId ? [s.placePrediction] : [],
      );
      const suggestions: PlaceSuggestion[] = raw.map((p) => ({
        placeId: p.placeId!,
        description: p.text?.text ?? p.structuredFormat?.mainText?.text ?? '',
        mainText: p.structuredFormat?.mainText?.text ?? p.text?.text ?? '',
        secondaryText: p.structuredFormat?.secondaryText?.text ?? '',
      }));
      return { suggestions };
    },

    async details(placeId) {
      const { status, body } = await fetchJson(
        'Google Places',
        `${base}/places/${encodeURIComponent(placeId)}`,
        { headers: { ...headers, 'x-goog-fieldmask': DETAIL_FIELDS }, timeoutMs: config.timeoutMs },
      );
      if (status === 404 || (status === 400 && /not (found|valid)/i.test(errorOf(body)))) return null;
      if (status !== 200) throw new PlacesError(`Google Places answered ${status}: ${errorOf(body)}`);
      return googleAddress(body as RawPlace);
    },
  };
}
