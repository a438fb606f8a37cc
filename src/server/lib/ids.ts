import crypto from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A random base62 id; 20 characters carry about 119 bits. */
export function randomId(length = 20): string {
  const bytes = crypto.randomBytes(length * 2);
  let id = '';
  for (let i = 0; id.length < length && i < bytes.length; i++) {
    // 248 is the largest multiple of 62 below 256: rejecting above it keeps every character equally likely.
    if (bytes[i] < 248) id += ALPHABET[bytes[i] % 62];
  }
  return id.length === length ? id : randomId(length);
}

/** An unguessable token for sessions and mailed links; only its hash is stored. */
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');
