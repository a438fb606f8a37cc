/**
 * An event's identity (`customer_events.ident`): a 64-bit hash of the source's own event id when it
 * has one, else of the event itself (workspace, profile, key, time to the millisecond and its
 * properties as PostgreSQL prints their jsonb). Two events with the same identity are the same event:
 * the write path stores it once (`repository.ts`, `segments.ts`).
 *
 * The hash is PostgreSQL's `hashtextextended(text, 0)` computed here byte for byte, so that SQL can
 * derive the same identity from a stored row (migration 0019 gave every event stored before it one;
 * a later import of the same file finds them). Both texts start with the workspace id, so an identity
 * is the workspace's own; a source id is not tied to the profile, a derived identity is.
 *
 * An identity is written once, with the row, and never recomputed: when a row's profile_id is changed
 * (an anonymous visitor's events moved to the profile it became), the row keeps its identity, so a
 * source id still finds it under the new profile; a derived identity stays the one hashed from the
 * profile id it was written with. Identities are unique per profile, so such a move must leave out
 * (delete) the rows whose identity the new profile has already (`customer_events_ident_idx` refuses
 * them in their segment; elsewhere they would be stored twice), and move the counts of those it moves.
 */

/** The text a derived identity hashes (SQL: `derivedIdentityText` in migration 0019 spells the same). */
function derivedIdentityText(
  workspaceId: string,
  profileId: string,
  event: string,
  at: string,
  propertiesText: string,
) {
  return `${workspaceId}\x1f${profileId}\x1f${event}\x1f${Date.parse(at)}\x1f${propertiesText}`;
}

/** The text a source id's identity hashes. */
const sourceIdentityText = (workspaceId: string, id: string) => `${workspaceId}\x1e${id}`;

/** The identity of an event, as COPY text of a bigint. */
export function eventIdentity(
  workspaceId: string,
  profileId: string,
  event: string,
  at: string,
  propertiesText: string,
  id: string | undefined,
) {
  const text =
    id === undefined
      ? derivedIdentityText(workspaceId, profileId, event, at, propertiesText)
      : sourceIdentityText(workspaceId, id);
  return hashTextExtended(text);
}

/**
 * A value as PostgreSQL's jsonb prints it: object keys ordered by their length in UTF-8 bytes, then
 * bytewise; `", "` and `": "` between; numbers without an exponent. Event properties are stored in
 * this form, and it is the text their derived identity hashes.
 */
export function jsonbText(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return jsonbNumber(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return value.length ? `[${value.map(jsonbText).join(', ')}]` : '[]';
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = jsonbKeys(record);
    if (!keys.length) return '{}';
    let text = '{';
    for (let i = 0; i < keys.length; i++) {
      if (i) text += ', ';
      text += `${keys[i].quoted}: ${jsonbText(record[keys[i].key])}`;
    }
    return `${text}}`;
  }
  return 'null';
}

interface JsonbKey {
  key: string;
  quoted: string;
}

/**
 * The keys of objects already met, by their keys in the order given (an import's rows share a few
 * such orders): in jsonb's order, quoted. Bounded; past the bound, an object's keys are sorted anew.
 */
const keyOrders = new Map<string, JsonbKey[]>();
const KEY_ORDERS_KEPT = 1000;

function jsonbKeys(record: Record<string, unknown>) {
  const given = Object.keys(record);
  const signature = given.join('\0');
  let keys = keyOrders.get(signature);
  if (!keys) {
    keys = sortedKeys(given).map((key) => ({ key, quoted: JSON.stringify(key) }));
    if (keyOrders.size < KEY_ORDERS_KEPT) keyOrders.set(signature, keys);
  }
  if (keys.every(({ key }) => record[key] !== undefined)) return keys;
  return keys.filter(({ key }) => record[key] !== undefined);
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** jsonb's key order: shorter first (in UTF-8 bytes), then bytewise. */
function sortedKeys(keys: string[]) {
  const ascii = keys.every((key) => !NON_ASCII.test(key));
  return [...keys].sort(
    ascii
      ? (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
      : (a, b) =>
          Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
}

/** A number as jsonb's numeric prints it: JSON's digits, with an exponent written out. */
function jsonbNumber(value: number) {
  const text = JSON.stringify(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const point = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const at = (point < 0 ? mantissa.length : point) + exponent;
  const plain =
    at <= 0
      ? `0.${'0'.repeat(-at)}${digits}`
      : at >= digits.length
        ? digits + '0'.repeat(at - digits.length)
        : `${digits.slice(0, at)}.${digits.slice(at)}`;
  return negative ? `-${plain}` : plain;
}

const rot = (x: number, k: number) => (x << k) | (x >>> (32 - k));
let buffer = Buffer.alloc(4096);

/**
 * PostgreSQL's `hashtextextended(text, 0)` (`hash_bytes_extended`, Bob Jenkins' lookup3 over the
 * UTF-8 bytes, as on every little-endian machine) as the decimal text of a signed bigint.
 */
function hashTextExtended(text: string): string {
  if (text.length * 3 > buffer.length) buffer = Buffer.alloc(text.length * 3);
  const k = buffer;
  let len = k.write(text, 0, 'utf8');
  let a = (0x9e3779b9 + len + 3923095) | 0;
  let b = a;
  let c = a;
  let i = 0;
  while (len >= 12) {
    a = (a + (k[i] | (k[i + 1] << 8) | (k[i + 2] << 16) | (k[i + 3] << 24))) | 0;
    b = (b + (k[i + 4] | (k[i + 5] << 8) | (k[i + 6] << 16) | (k[i + 7] << 24))) | 0;
    c = (c + (k[i + 8] | (k[i + 9] << 8) | (k[i + 10] << 16) | (k[i + 11] << 24))) | 0;
    // mix(a, b, c)
    a = (a - c) | 0;
    a ^= rot(c, 4);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 6);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 8);
    b = (b + a) | 0;
    a = (a - c) | 0;
    a ^= rot(c, 16);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 19);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 4);
    b = (b + a) | 0;
    i += 12;
    len -= 12;
  }
  // The last 11 bytes; the lowest byte of c is left for the length.
  if (len >= 11) c = (c + (k[i + 10] << 24)) | 0;
  if (len >= 10) c = (c + (k[i + 9] << 16)) | 0;
  if (len >= 9) c = (c + (k[i + 8] << 8)) | 0;
  if (len >= 8) b = (b + (k[i + 7] << 24)) | 0;
  if (len >= 7) b = (b + (k[i + 6] << 16)) | 0;
  if (len >= 6) b = (b + (k[i + 5] << 8)) | 0;
  if (len >= 5) b = (b + k[i + 4]) | 0;
  if (len >= 4) a = (a + (k[i + 3] << 24)) | 0;
  if (len >= 3) a = (a + (k[i + 2] << 16)) | 0;
  if (len >= 2) a = (a + (k[i + 1] << 8)) | 0;
  if (len >= 1) a = (a + k[i]) | 0;
  // final(a, b, c)
  c ^= b;
  c = (c - rot(b, 14)) | 0;
  a ^= c;
  a = (a - rot(c, 11)) | 0;
  b ^= a;
  b = (b - rot(a, 25)) | 0;
  c ^= b;
  c = (c - rot(b, 16)) | 0;
  a ^= c;
  a = (a - rot(c, 4)) | 0;
  b ^= a;
  b = (b - rot(a, 14)) | 0;
  c ^= b;
  c = (c - rot(b, 24)) | 0;
  // (b << 32) | c as a signed 64-bit integer.
  return int64Text(b, c >>> 0);
}

/**
 * The decimal text of the signed 64-bit integer `hi * 2^32 + lo` (hi signed, lo unsigned), in exact
 * double arithmetic (a BigInt took as long as the hash): the value is cut at 10^6 twice.
 */
function int64Text(hi: number, lo: number) {
  let sign = '';
  let high = hi >>> 0;
  if (hi < 0) {
    sign = '-';
    lo = (~lo + 1) >>> 0;
    high = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  const hq = Math.floor(high / 1e6);
  const rest = (high - hq * 1e6) * 4294967296 + lo;
  const rq = Math.floor(rest / 1e6);
  const upper = hq * 4294967296 + rq;
  const lower = String(rest - rq * 1e6);
  return upper ? `${sign}${upper}${lower.padStart(6, '0')}` : `${sign}${lower}`;
}
