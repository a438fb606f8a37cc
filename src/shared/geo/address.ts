import { mapNestedEntries } from '../schemas/blocks';
import type { FieldDef, SchemaType } from '../schemas/types';
import { addressGeohash, isLatitude, isLongitude, MAX_RADIUS_KM } from './geohash';

/** Spec §3 Address value, as the lookup answers it and the field stores it. */
export interface AddressValue {
  rawAddress?: string;
  streetNumber?: string;
  streetAddress?: string;
  unit?: string;
  city?: string;
  state?: string;
  county?: string;
  neighborhood?: string;
  country?: string;
  postal_code?: string;
  latitude?: number;
  longitude?: number;
  google_place?: unknown;
  geohash?: Record<string, string>;
  geohashes?: string[];
}

/** The address parts a person reads and edits, in the order the field shows them. */
export const ADDRESS_PARTS = [
  'rawAddress',
  'streetNumber',
  'streetAddress',
  'unit',
  'neighborhood',
  'city',
  'county',
  'state',
  'postal_code',
  'country',
] as const;

/**
 * An address with its geohash recomputed from its latitude and longitude (keys p_1 … p_12 and the 12
 * prefixes); without both it carries none. Whatever geohash the client sent is dropped.
 */
export function withGeohash(address: Record<string, unknown>): Record<string, unknown> {
  const { geohash: _sentGeohash, geohashes: _sentGeohashes, ...rest } = address;
  if (!isLatitude(rest.latitude) || !isLongitude(rest.longitude)) return rest;
  return { ...rest, ...addressGeohash(rest.latitude, rest.longitude) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldsWithGeohash(fields: readonly FieldDef[], data: Record<string, unknown>, schema: SchemaType) {
  let out: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown) => ((out ??= { ...data })[key] = value);
  for (const field of fields) {
    const value = data[field.key];
    if (field.type === 'address' && isRecord(value)) set(field.key, withGeohash(value));
    const rows = mapNestedEntries(field, value, schema.blockTypes, (entry) =>
      fieldsWithGeohash(entry.fields, entry.data, schema),
    );
    if (rows !== value) set(field.key, rows);
    if (field.type === 'combinations' && Array.isArray(value)) {
      set(
        field.key,
        value.map((row) =>
          isRecord(row) && isRecord(row.overrides)
            ? { ...row, overrides: fieldsWithGeohash(schema.fields, row.overrides, schema) }
            : row,
        ),
      );
    }
  }
  return out ?? data;
}

/**
 * Item data with the geohash of every address (top-level, in table rows, in blocks and in combination
 * overrides) computed on the server: run on every save.
 */
export function withAddressGeohashes(schema: SchemaType, data: Record<string, unknown>) {
  return fieldsWithGeohash(schema.fields, data, schema);
}

export const hasAddressField = (schema: SchemaType) =>
  schema.fields.some((field) => field.type === 'address');

export const NEAR_MESSAGES = {
  near: 'near must be {latitude},{longitude}, e.g. 48.8566,2.3522',
  latitude: 'near: latitude must be between -90 and 90',
  longitude: 'near: longitude must be between -180 and 180',
  radius: `radiusKm must be a number above 0 and at most ${Math.round(MAX_RADIUS_KM)}`,
  noAddress: 'Near search needs a schema with an address field',
  view: 'Near search lists the views all and last-updated-by-me',
} as const;

/** Default radius of a near search without radiusKm. */
export const DEFAULT_NEAR_RADIUS_KM = 10;

/** `48.8566,2.3522` as a point, or the message saying what is wrong with it. */
export function parseNear(text: string): { latitude: number; longitude: number } | { error: string } {
  const number = String.raw`([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)`;
  const match = new RegExp(String.raw`^\s*${number}\s*,\s*${number}\s*$`).exec(text);
  if (!match) return { error: NEAR_MESSAGES.near };
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (!isLatitude(latitude)) return { error: NEAR_MESSAGES.latitude };
  if (!isLongitude(longitude)) return { error: NEAR_MESSAGES.longitude };
  return { latitude, longitude };
}

/** One line of an address: its parts, or the raw address when it has none. */
export function addressLine(address: AddressValue | null | undefined): string {
  if (!address) return '';
  const street = [address.streetNumber, address.streetAddress].filter(Boolean).join(' ');
  const parts = [
    address.unit ? `${street}, ${address.unit}` : street,
    address.city,
    [address.state, address.postal_code].filter(Boolean).join(' '),
    address.country,
  ].filter((part) => part && part.trim());
  return parts.length > 0 ? parts.join(', ') : (address.rawAddress ?? '');
}

/** The value of an item's first address field, if it holds one. */
export function itemAddress(
  schema: SchemaType,
  data: Readonly<Record<string, unknown>>,
): AddressValue | null {
  const field = schema.fields.find((f) => f.type === 'address');
  const value = field ? data[field.key] : undefined;
  return isRecord(value) ? (value as AddressValue) : null;
}
