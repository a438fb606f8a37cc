import crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random bytes drawn 4 KiB at a time (as Node's randomUUID does): one fill serves about a hundred ids. */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomByte() {
  if (used === pool.length) {
    crypto.randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

/** A random base62 id; 20 characters carry about 119 bits. */
export function randomId(length = 20): string {
  let id = '';
  while (id.length < length) {
    const byte = randomByte();
    // 248 is the largest multiple of 62 below 256: rejecting above it keeps every character equally likely.
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}

/** An unguessable token for sessions and mailed links; only its hash is stored. */
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** SHA-256 of a token, as stored. The one-shot `crypto.hash` costs less than half of a Hash object; every request hashes its session token. */
export const hashToken = (token: string) => crypto.hash('sha256', token, 'base64url');
