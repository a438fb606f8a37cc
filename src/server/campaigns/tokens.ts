import crypto from 'node:crypto';

/**
 * The tokens in a campaign message's links: unsubscribe (`u`), open pixel (`o`) and click (`c`, with
 * the link's number). Each names the workspace, the send and the recipient's number in that send, never
 * the profile id or the address, and carries an HMAC under MARQUEE_SECRET, so a token cannot be made or
 * changed without the secret: `base64url(kind:workspace:send:n:link).signature`.
 */
export type TokenKind = 'u' | 'o' | 'c';

export interface RecipientToken {
  kind: TokenKind;
  workspaceId: string;
  sendId: string;
  /** The recipient's number in the send (campaign_recipients.n). */
  n: number;
  /** The link's number (campaign_links.idx) of a click token; 0 otherwise. */
  link: number;
}

const SIGNATURE_BYTES = 16;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const signatureOf = (payload: string, secret: string) =>
  crypto
    .createHmac('sha256', `campaign-token:${secret}`)
    .update(payload)
    .digest()
    .subarray(0, SIGNATURE_BYTES);

export function signToken(token: RecipientToken, secret: string): string {
  const payload = `${token.kind}:${token.workspaceId}:${token.sendId}:${token.n}:${token.link}`;
  return `${Buffer.from(payload).toString('base64url')}.${signatureOf(payload, secret).toString('base64url')}`;
}

/**
 * The bytes of base64url text in the one spelling `signToken` writes, else undefined: Node's decoder
 * also takes `+/`, padding and unused trailing bits, and each such spelling would be one more valid
 * token for the same recipient.
 */
function canonicalBytes(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** The token's fields, or null when it is malformed, of another kind, or its signature does not match. */
export function verifyToken(text: string, kind: TokenKind, secret: string): RecipientToken | null {
  const [encoded, signature, ...rest] = text.split('.');
  if (!encoded || !signature || rest.length) return null;
  const payloadBytes = canonicalBytes(encoded);
  const given = canonicalBytes(signature);
  if (!payloadBytes || !given) return null;
  const payload = payloadBytes.toString();
  const expected = signatureOf(payload, secret);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  const [tokenKind, workspaceId, sendId, n, link] = payload.split(':');
  if (tokenKind !== kind || !ID.test(workspaceId ?? '') || !ID.test(sendId ?? '')) return null;
  const number = Number(n);
  const linkNumber = Number(link);
  if (!Number.isSafeInteger(number) || number < 1 || !Number.isSafeInteger(linkNumber) || linkNumber < 0) {
    return null;
  }
  return { kind, workspaceId, sendId, n: number, link: linkNumber };
}
