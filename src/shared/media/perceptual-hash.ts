/**
 * dHash (difference hash): the image shrunk to 9×8 grey pixels, one bit per horizontally adjacent pair
 * (left brighter than right). Re-encoding, resizing and mild edits move only a few of the 64 bits.
 */
export const DHASH_WIDTH = 9;
export const DHASH_HEIGHT = 8;

/** At most this many differing bits of 64 counts as a near-duplicate. */
export const NEAR_DUPLICATE_DISTANCE = 10;

/** The 16-hex-digit dHash of 9×8 = 72 grey values given row by row. */
export function dHashOfGrey(pixels: ArrayLike<number>): string {
  if (pixels.length !== DHASH_WIDTH * DHASH_HEIGHT) {
    throw new Error(`dHash needs ${DHASH_WIDTH * DHASH_HEIGHT} grey values, got ${pixels.length}`);
  }
  let hex = '';
  for (let row = 0; row < DHASH_HEIGHT; row++) {
    let byte = 0;
    for (let col = 0; col < DHASH_WIDTH - 1; col++) {
      const left = pixels[row * DHASH_WIDTH + col];
      const right = pixels[row * DHASH_WIDTH + col + 1];
      byte = (byte << 1) | (left > right ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const POPCOUNT = Array.from(
  { length: 16 },
  (_, n) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1),
);

/** Differing bits between two hex hashes of the same length (Hamming distance). */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new Error('Hashes of different lengths cannot be compared');
  let distance = 0;
  for (let i = 0; i < a.length; i++) distance += POPCOUNT[parseInt(a[i], 16) ^ parseInt(b[i], 16)];
  return distance;
}

export type MatchKind = 'duplicate' | 'near-duplicate';

/** 'duplicate' for the same hash, 'near-duplicate' within NEAR_DUPLICATE_DISTANCE, otherwise null. */
export function matchKind(distance: number, threshold = NEAR_DUPLICATE_DISTANCE): MatchKind | null {
  if (distance === 0) return 'duplicate';
  return distance <= threshold ? 'near-duplicate' : null;
}
