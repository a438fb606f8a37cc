import crypto from 'node:crypto';

/** `t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}" with the secret}` (the X-Marquee-Signature header). */
export function signatureHeader(secret: string, body: string, at: Date = new Date()) {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
