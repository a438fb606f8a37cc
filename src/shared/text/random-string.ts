export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Fills a byte array with random values; Web Crypto by default (browsers and Node 20 alike). */
export type RandomBytes = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

const cryptoBytes: RandomBytes = (bytes) => {
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
};

/** A random string of `length` characters from A–Z, a–z and 0–9, without modulo bias. */
export function randomAlphanumeric(length: number, randomBytes: RandomBytes = cryptoBytes): string {
  const limit = 256 - (256 % ALPHANUMERIC.length);
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(new Uint8Array(Math.max(16, length - result.length)))) {
      if (byte < limit && result.length < length) result += ALPHANUMERIC[byte % ALPHANUMERIC.length];
    }
  }
  return result;
}
