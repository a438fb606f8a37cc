import type { PlaceAddress } from '@shared/api/places';
import { compactAddress, fetchJson, PlacesError, type PlacesProvider } from './places';

/**
 * An OpenStreetMap geocoder speaking the Nominatim API (`/search`, `/lookup`,
 * https://nominatim.org/release-docs/latest/api/Overview/) at GEOCODER_URL: a public instance (mind
 * its usage policy: at most one request a second, hence the cache and the rate limit) or your own.
 * Place ids are the OSM object: N123 (node), W123 (way) or R123 (relation).
 */
export interface NominatimConfig {
  baseUrl: string;
  /** Nominatim asks every application to identify itself. */
  userAgent: string;
  timeoutMs?: number;
}

interface RawPlace {
  osm_type?: string;
  osm_id?: number;
  lat?: string;
  lon?: string;
  display_name?: string;
  name?: string;
  address?: Record<string, string>;
}

/** Degrees around the bias point of the box Nominatim prefers (without restricting to it). */
const BIAS_BOX_DEGREES = 0.5;

const placeIdOf = (place: RawPlace) =>
  place.osm_type && place.osm_id !== undefined ? `${place.osm_type[0].toUpperCase()}${place.osm_id}` : null;

function nominatimAddress(place: RawPlace): PlaceAddress {
  const a = place.address ?? {};
  const latitude = Number(place.lat);
  const longitude = Number(place.lon);
  return compactAddress({
    rawAddress: place.display_name,
    streetNumber: a.house_number,
    streetAddress: a.road ?? a.pedestrian ?? a.footway,
    unit: a.unit ?? a.flats,
    neighborhood: a.neighbourhood ?? a.suburb ?? a.quarter,
    city: a.city ?? a.town ?? a.village ?? a.hamlet ?? a.municipality,
    county: a.county,
    state: a.state,
    postal_code: a.postcode,
    country: a.country_code?.toUpperCase(),
    latitude: Number.isFinite(latitude) && place.lat !== undefined ? latitude : undefined,
    longitude: Number.isFinite(longitude) && place.lon !== undefined ? longitude : undefined,
  });
}

export function createNominatim(config: NominatimConfig): PlacesProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const headers = { 'user-agent': config.userAgent, accept: 'application/json' };
  const call = async (path: string, params: Record<string, string>) => {
    const url = `${base}${path}?${new URLSearchParams({ format: 'jsonv2', addressdetails: '1', ...params })}`;
    const { status, body } = await fetchJson('The geocoder', url, { headers, timeoutMs: config.timeoutMs });
    if (status !== 200 || !Array.isArray(body)) {
      const message = (body as { error?: { message?: string } | string } | null)?.error;
      throw new PlacesError(
        `The geocoder answered ${status}: ${typeof message === 'string' ? message : (message?.message ?? 'no list of places')}`,
      );
    }
    return body as RawPlace[];
  };

  return {
    name: 'nominatim',

    async autocomplete(query, bias) {
      const params: Record<string, string> = { q: query, limit: '5' };
      if (bias) {
        const d = BIAS_BOX_DEGREES;
        params.viewbox = [bias.longitude - d, bias.latitude + d, bias.longitude + d, bias.latitude - d].join(
          ',',
        );
        params.bounded = '0';
      }
      const places = await call('/search', params);
      const addresses = new Map<string, PlaceAddress>();
      const suggestions = places.flatMap((place) => {
        const placeId = placeIdOf(place);
        if (!placeId) return [];
        addresses.set(placeId, nominatimAddress(place));
        const description = place.display_name ?? '';
        const [first, ...rest] = description.split(', ');
        return [{ placeId, description, mainText: place.name || first, secondaryText: rest.join(', ') }];
      });
      return { suggestions, addresses };
    },

    async details(placeId) {
      if (!/^[NWR]\d{1,19}$/.test(placeId)) return null;
      const [place] = await call('/lookup', { osm_ids: placeId });
      return place ? nominatimAddress(place) : null;
    },
  };
}
