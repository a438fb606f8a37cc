import fc from 'fast-check';
import {
  addressGeohash,
  boundingBox,
  cellBounds,
  coveringCells,
  distanceKm,
  encodeGeohash,
  GEOHASH_MESSAGES,
  MAX_COVERING_CELLS,
  neighbourOf,
} from './geohash';

describe('geohash encoding', () => {
  it('matches published values', () => {
    // Wikipedia "Geohash": 57.64911, 10.40744 → u4pruydqqvj; 42.6, -5.6 → ezs42.
    expect(encodeGeohash(57.64911, 10.40744, 11)).toBe('u4pruydqqvj');
    expect(encodeGeohash(42.6, -5.6, 5)).toBe('ezs42');
    // latlon-geohash's README: 52.205, 0.119 at 7 → u120fxw.
    expect(encodeGeohash(52.205, 0.119, 7)).toBe('u120fxw');
  });

  it('stores every prefix length from 1 to 12', () => {
    const { geohash, geohashes } = addressGeohash(57.64911, 10.40744);
    expect(geohashes).toHaveLength(12);
    expect(geohashes[10]).toBe('u4pruydqqvj');
    expect(geohash.p_1).toBe('u');
    expect(geohash.p_5).toBe('u4pru');
    expect(geohash.p_12).toBe(geohashes[11]);
    geohashes.forEach((prefix, i) => expect(prefix).toBe(geohashes[11].slice(0, i + 1)));
  });

  it('encodes the corners of the world', () => {
    expect(encodeGeohash(90, 180)).toBe('zzzzzzzzzzzz');
    expect(encodeGeohash(-90, -180)).toBe('000000000000');
  });
});

describe('neighbours', () => {
  it('answers the adjacent cell (published example gbsuv)', () => {
    expect(neighbourOf('gbsuv', 'n')).toBe('gbsvj');
    expect(neighbourOf('gbsuv', 's')).toBe('gbsut');
    expect(neighbourOf('gbsuv', 'e')).toBe('gbsuy');
    expect(neighbourOf('gbsuv', 'w')).toBe('gbsuu');
  });

  it('wraps across the antimeridian and stops at the poles', () => {
    expect(neighbourOf('zzz', 'e')).toBe('bpb');
    expect(neighbourOf('bpb', 'w')).toBe('zzz');
    expect(neighbourOf('zzz', 'n')).toBeNull();
    expect(neighbourOf('000', 's')).toBeNull();
  });

  it("refuses a bad hash or direction with the spec's messages", () => {
    expect(() => neighbourOf('', 'n')).toThrow(GEOHASH_MESSAGES.invalidGeohash);
    expect(() => neighbourOf('abc', 'n')).toThrow(GEOHASH_MESSAGES.invalidGeohash);
    expect(() => neighbourOf('u4pruydqqvj8x', 'n')).toThrow(GEOHASH_MESSAGES.invalidGeohash);
    expect(() => neighbourOf('u4pru', 'up')).toThrow(GEOHASH_MESSAGES.invalidDirection);
    expect(() => neighbourOf('u4pru', 'ne')).toThrow(GEOHASH_MESSAGES.invalidDirection);
  });

  it('shares an edge with the cell (property)', () => {
    const cell = fc
      .tuple(fc.double({ min: -89, max: 89, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }))
      .chain(([lat, lng]) => fc.integer({ min: 1, max: 12 }).map((n) => encodeGeohash(lat, lng, n)));
    fc.assert(
      fc.property(cell, fc.constantFrom('n', 's', 'e', 'w'), (hash, direction) => {
        const next = neighbourOf(hash, direction);
        const a = cellBounds(hash);
        if (next === null) return direction === 'n' ? a.north === 90 : a.south === -90;
        const b = cellBounds(next);
        if (direction === 'n') return b.south === a.north && b.west === a.west;
        if (direction === 's') return b.north === a.south && b.west === a.west;
        if (direction === 'e')
          return b.south === a.south && (b.west === a.east || (a.east === 180 && b.west === -180));
        return b.south === a.south && (b.east === a.west || (a.west === -180 && b.east === 180));
      }),
    );
  });
});

describe('distance', () => {
  it('measures great circles', () => {
    // Paris to London is about 343.5 km.
    expect(
      distanceKm({ latitude: 48.8566, longitude: 2.3522 }, { latitude: 51.5074, longitude: -0.1278 }),
    ).toBeCloseTo(343.5, 0);
    // Across the antimeridian, and over the pole.
    expect(distanceKm({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 })).toBeCloseTo(
      22.24,
      1,
    );
    expect(distanceKm({ latitude: 89.9, longitude: 0 }, { latitude: 89.9, longitude: 180 })).toBeCloseTo(
      22.24,
      1,
    );
  });
});

describe('covering cells', () => {
  const point = fc.record({
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  });

  it('covers every point within the radius (property)', () => {
    fc.assert(
      fc.property(
        point,
        fc.double({ min: 0, max: 3000, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (center, radiusKm, fraction, bearing) => {
          const cells = coveringCells(center, radiusKm);
          if (cells === null) return true;
          expect(cells.length).toBeLessThanOrEqual(MAX_COVERING_CELLS);
          const target = destination(center, radiusKm * fraction, bearing);
          const hash = encodeGeohash(target.latitude, target.longitude);
          return cells.some((cell) => hash.startsWith(cell));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes every longitude when the circle holds a pole, and splits at the antimeridian', () => {
    expect(boundingBox({ latitude: 89.5, longitude: 10 }, 100).longitudes).toEqual([[-180, 180]]);
    const box = boundingBox({ latitude: 0, longitude: 179.95 }, 20);
    expect(box.longitudes).toHaveLength(2);
    expect(box.longitudes[1][0]).toBe(-180);
  });

  it('answers null for a circle holding the whole sphere', () => {
    expect(coveringCells({ latitude: 0, longitude: 0 }, 30_000)).toBeNull();
  });

  it('uses small cells for a small radius', () => {
    const cells = coveringCells({ latitude: 52.205, longitude: 0.119 }, 1)!;
    expect(cells.length).toBeGreaterThan(0);
    expect(cells[0].length).toBeGreaterThanOrEqual(5);
  });
});

/** The point `distance` km from `start` on the initial bearing (radians). */
function destination(start: { latitude: number; longitude: number }, distance: number, bearing: number) {
  const R = 6371.0088;
  const d = distance / R;
  const φ1 = (start.latitude * Math.PI) / 180;
  const λ1 = (start.longitude * Math.PI) / 180;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(bearing));
  const λ2 =
    λ1 +
    Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  const longitude = (((((λ2 * 180) / Math.PI + 540) % 360) + 360) % 360) - 180;
  return { latitude: Math.max(-90, Math.min(90, (φ2 * 180) / Math.PI)), longitude };
}
