import crypto from 'node:crypto';

/**
 * AES-256-GCM sealing under a key derived from MARQUEE_SECRET (HKDF-SHA256). The purpose string is the
 * additional authenticated data, so a sealed value opens only for the purpose it was made for: tokens
 * sealed for one workspace and provider do not open for another, and any changed byte fails the tag.
 * Format: `v1.{iv}.{ciphertext}.{tag}`, each part base64url.
 */

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(crypto.hkdfSync('sha256', secret, 'marquee', 'marquee sealed values', 32));
    keys.set(secret, key);
  }
  return key;
}

export function seal(secret: string, purpose: string, value: unknown): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The sealed value, or undefined when it was not sealed by this secret for this purpose (or was changed). */
export function unseal<T = unknown>(secret: string, purpose: string, sealed: unknown): T | undefined {
  if (typeof sealed !== 'string' || sealed.length > 64 * 1024) return undefined;
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return undefined;
  const [iv, body, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  if (iv.length !== 12 || tag.length !== 16) return undefined;
  // One spelling per value: base64url's spare low bits must be zero, so no two strings open alike.
  if (tag.toString('base64url') !== parts[3] || iv.toString('base64url') !== parts[1]) return undefined;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), iv);
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
