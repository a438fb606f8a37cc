import Geohash from 'latlon-geohash';

/**
 * Geohashes (spec §3 Address value, §8 errors, §9: up to 12 characters, stored at every prefix length),
 * encoded by `latlon-geohash`, and the geometry of the "near" search: great-circle distance and the
 * geohash cells that cover a circle on the sphere.
 */

const GEOHASH_MAX_LENGTH = 12;

export const GEOHASH_MESSAGES = {
  invalidGeohash: 'Invalid geohash',
  invalidDirection: 'Invalid direction',
} as const;

const DIRECTIONS = ['n', 's', 'e', 'w'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
/** Half the equator: every point of the sphere lies within this distance of any other. */
export const MAX_RADIUS_KM = Math.PI * EARTH_RADIUS_KM;

const GEOHASH_PATTERN = /^[0-9bcdefghjkmnpqrstuvwxyz]{1,12}$/;

const isGeohash = (hash: string) => GEOHASH_PATTERN.test(hash);

export class GeohashError extends Error {
  constructor(message: (typeof GEOHASH_MESSAGES)[keyof typeof GEOHASH_MESSAGES]) {
    super(message);
    this.name = 'GeohashError';
  }
}

/** `{ p_1: 'u', p_2: 'u4', … p_12: 'u4pruydqqvj8' }` */
type GeohashPrefixes = Record<`p_${number}`, string>;

export interface AddressGeohash {
  geohash: GeohashPrefixes;
  geohashes: string[];
}

export const isLatitude = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= -90 && value <= 90;
export const isLongitude = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= -180 && value <= 180;

/** The geohash of a point, 12 characters unless told otherwise. */
export function encodeGeohash(latitude: number, longitude: number, length = GEOHASH_MAX_LENGTH) {
  return Geohash.encode(latitude, longitude, length);
}

/** The stored form of a point's geohash: keys p_1 … p_12 and the list of the 12 prefixes. */
export function addressGeohash(latitude: number, longitude: number): AddressGeohash {
  const full = encodeGeohash(latitude, longitude);
  const geohashes = Array.from({ length: GEOHASH_MAX_LENGTH }, (_, i) => full.slice(0, i + 1));
  const geohash = Object.fromEntries(geohashes.map((prefix, i) => [`p_${i + 1}`, prefix])) as GeohashPrefixes;
  return { geohash, geohashes };
}

/** South-west and north-east corners of a cell. */
export function cellBounds(hash: string) {
  if (!isGeohash(hash)) throw new GeohashError(GEOHASH_MESSAGES.invalidGeohash);
  const { sw, ne } = Geohash.bounds(hash);
  return { south: sw.lat, west: sw.lon, north: ne.lat, east: ne.lon };
}

/**
 * The cell of the same length next to `hash` in a direction; east of the antimeridian wraps to the west.
 * North of the northernmost row (south of the southernmost) there is no cell: null.
 */
export function neighbourOf(hash: string, direction: string): string | null {
  const cell = hash.toLowerCase();
  if (!isGeohash(cell)) throw new GeohashError(GEOHASH_MESSAGES.invalidGeohash);
  const dir = direction.toLowerCase() as Direction;
  if (!DIRECTIONS.includes(dir)) throw new GeohashError(GEOHASH_MESSAGES.invalidDirection);
  const bounds = cellBounds(cell);
  if ((dir === 'n' && bounds.north >= 90) || (dir === 's' && bounds.south <= -90)) return null;
  return Geohash.adjacent(cell, dir);
}

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

export interface Point {
  latitude: number;
  longitude: number;
}

/** Great-circle distance in km (haversine on the mean radius); the SQL of the near search computes the same. */
export function distanceKm(a: Point, b: Point) {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLng = toRadians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A latitude band and the longitude ranges (one, or two across the antimeridian) it spans. */
export interface BoundingBox {
  south: number;
  north: number;
  longitudes: [number, number][];
}

/** Degrees of slack on every side, so points on a cell edge or the circle's rim are never left out. */
const SLACK = 1e-7;

/**
 * The box holding every point within `radiusKm` of `center` (Matuschek's bounding coordinates): the
 * longitude span widens with latitude, takes every longitude when the circle holds a pole, and is
 * split in two where it crosses the antimeridian.
 */
export function boundingBox(center: Point, radiusKm: number): BoundingBox {
  const angle = radiusKm / EARTH_RADIUS_KM;
  const south = center.latitude - toDegrees(angle) - SLACK;
  const north = center.latitude + toDegrees(angle) + SLACK;
  const everyLongitude = { longitudes: [[-180, 180]] as [number, number][] };
  if (north >= 90 || south <= -90) {
    return { south: Math.max(-90, south), north: Math.min(90, north), ...everyLongitude };
  }
  const ratio = Math.sin(angle) / Math.cos(toRadians(center.latitude));
  if (ratio >= 1 || angle >= Math.PI / 2) return { south, north, ...everyLongitude };
  const span = toDegrees(Math.asin(ratio)) + SLACK;
  const west = center.longitude - span;
  const east = center.longitude + span;
  if (span >= 180) return { south, north, ...everyLongitude };
  const longitudes: [number, number][] =
    west < -180
      ? [
          [west + 360, 180],
          [-180, east],
        ]
      : east > 180
        ? [
            [west, 180],
            [-180, east - 360],
          ]
        : [[west, east]];
  return { south, north, longitudes };
}

/** Width and height in degrees of a cell of a geohash length (5 bits per character, longitude first). */
function cellSize(length: number) {
  const bits = 5 * length;
  const lngBits = Math.ceil(bits / 2);
  const latBits = Math.floor(bits / 2);
  return { width: 360 / 2 ** lngBits, height: 180 / 2 ** latBits };
}

/** Index of the cell column or row holding a coordinate, the top edge belonging to the last one. */
const slot = (value: number, origin: number, size: number, count: number) =>
  Math.min(count - 1, Math.max(0, Math.floor((value - origin) / size)));

function cellGrid(box: BoundingBox, length: number) {
  const { width, height } = cellSize(length);
  const rows = Math.round(180 / height);
  const columns = Math.round(360 / width);
  const rowRange = [slot(box.south, -90, height, rows), slot(box.north, -90, height, rows)];
  const columnRanges = box.longitudes.map(([west, east]) => [
    slot(west, -180, width, columns),
    slot(east, -180, width, columns),
  ]);
  const count =
    (rowRange[1] - rowRange[0] + 1) * columnRanges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
  return { width, height, rowRange, columnRanges, count };
}

/** At most this many cells cover a circle: each is one index range scan. */
export const MAX_COVERING_CELLS = 16;

/**
 * The geohash cells (all of one length, the longest that needs at most MAX_COVERING_CELLS) that together
 * cover every point within `radiusKm` of `center`. Every point in the circle has a geohash starting with
 * one of them; points in them may still lie outside, so callers check the exact distance. Null when the
 * circle holds the whole sphere.
 */
export function coveringCells(center: Point, radiusKm: number): string[] | null {
  if (radiusKm >= MAX_RADIUS_KM) return null;
  const box = boundingBox(center, radiusKm);
  let length = 1;
  for (let next = 2; next <= GEOHASH_MAX_LENGTH; next++) {
    if (cellGrid(box, next).count > MAX_COVERING_CELLS) break;
    length = next;
  }
  const grid = cellGrid(box, length);
  if (length === 1 && grid.count >= 32) return null;
  const cells = new Set<string>();
  for (let row = grid.rowRange[0]; row <= grid.rowRange[1]; row++) {
    const latitude = -90 + (row + 0.5) * grid.height;
    for (const [from, to] of grid.columnRanges) {
      for (let column = from; column <= to; column++) {
        cells.add(encodeGeohash(latitude, -180 + (column + 0.5) * grid.width, length));
      }
    }
  }
  return [...cells].sort();
}
