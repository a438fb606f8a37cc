import fc from 'fast-check';
import { dHashOfGrey, hammingDistance, matchKind, NEAR_DUPLICATE_DISTANCE } from './perceptual-hash';

const grey = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 72, maxLength: 72 });

describe('dHash', () => {
  it('sets a bit where the left pixel is brighter than its right neighbour', () => {
    const falling = Array.from({ length: 72 }, (_, i) => 255 - (i % 9) * 10);
    expect(dHashOfGrey(falling)).toBe('ffffffffffffffff');
    const rising = Array.from({ length: 72 }, (_, i) => (i % 9) * 10);
    expect(dHashOfGrey(rising)).toBe('0000000000000000');
    expect(() => dHashOfGrey([1, 2, 3])).toThrow('dHash needs 72 grey values, got 3');
  });

  it('is 16 hex digits and ignores a uniform change of brightness', () => {
    fc.assert(
      fc.property(grey, fc.integer({ min: -40, max: 40 }), (pixels, shift) => {
        const hash = dHashOfGrey(pixels);
        const shifted = dHashOfGrey(pixels.map((p) => p + shift));
        return /^[0-9a-f]{16}$/.test(hash) && shifted === hash;
      }),
    );
  });
});

describe('Hamming distance and match kinds', () => {
  it('is a metric over hashes', () => {
    const hash = fc.stringMatching(/^[0-9a-f]{16}$/);
    fc.assert(
      fc.property(hash, hash, hash, (a, b, c) => {
        const ab = hammingDistance(a, b);
        return (
          hammingDistance(a, a) === 0 &&
          ab === hammingDistance(b, a) &&
          ab <= 64 &&
          hammingDistance(a, c) <= ab + hammingDistance(b, c)
        );
      }),
    );
    expect(hammingDistance('ff00', '00ff')).toBe(16);
    expect(() => hammingDistance('ff', 'fff')).toThrow();
  });

  it('calls 0 a duplicate, up to the threshold a near-duplicate, beyond it nothing', () => {
    expect(matchKind(0)).toBe('duplicate');
    expect(matchKind(1)).toBe('near-duplicate');
    expect(matchKind(NEAR_DUPLICATE_DISTANCE)).toBe('near-duplicate');
    expect(matchKind(NEAR_DUPLICATE_DISTANCE + 1)).toBeNull();
  });
});
