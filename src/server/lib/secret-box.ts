import crypto from 'node:crypto';

/**
 * Secrets the server must read back (webhook signing secrets) are kept encrypted with AES-256-GCM under
 * a key derived from MARQUEE_SECRET and a purpose, as `v1.{iv}.{tag}.{ciphertext}` (base64url).
 */
function keyFor(masterSecret: string, purpose: string) {
  return crypto.createHash('sha256').update(`${purpose}\0${masterSecret}`).digest();
}

export function sealSecret(masterSecret: string, purpose: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFor(masterSecret, purpose), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain secret; throws when the text was not sealed with this master secret and purpose. */
export function openSecret(masterSecret: string, purpose: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    keyFor(masterSecret, purpose),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
