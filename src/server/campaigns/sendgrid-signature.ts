import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/**
 * The verification key of SendGrid's Signed Event Webhook (SENDGRID_WEBHOOK_PUBLIC_KEY): PEM, or the
 * base64 DER (SubjectPublicKeyInfo) SendGrid's settings show. Throws when it is neither.
 */
export function webhookPublicKey(text: string): crypto.KeyObject {
  const trimmed = text.trim();
  const key = trimmed.includes('-----BEGIN')
    ? crypto.createPublicKey(trimmed)
    : crypto.createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec') throw new Error('not an elliptic-curve (ECDSA) public key');
  return key;
}

/** Whether `signature` (base64 DER ECDSA over SHA-256) signs the timestamp followed by the raw body. */
export function isSignedEventBody(
  key: crypto.KeyObject,
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
) {
  if (!signature || !timestamp) return false;
  try {
    return crypto.verify(
      'sha256',
      Buffer.concat([Buffer.from(timestamp), body]),
      key,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}
