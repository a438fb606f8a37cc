import dns from 'node:dns';
import net from 'node:net';
import { WEBHOOK_MESSAGES, WEBHOOK_PRIVATE_SETTING } from '@shared/api/webhooks';
import { badRequest } from '../http/errors';

/**
 * Private, loopback, link-local, shared, reserved and other not globally reachable ranges webhooks may
 * not call (SSRF), after IANA's special-purpose registries.
 */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  // IPv4-compatible addresses (`::a.b.c.d`, with `::` and `::1`): deprecated, never a public destination.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (any spelling, with or without a zone). */
function ipv6Groups(address: string): number[] {
  // The URL parser spells every form alike: hexadecimal groups, a dotted IPv4 tail rewritten, `::` for the longest zeros.
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const start = parse(head);
  const end = parse(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries to where it is routed: IPv4-mapped and IPv4-translated
 * (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`), 6to4 (`2002::/16`) and Teredo
 * (`2001::/32`: its server and its client).
 */
function embeddedIpv4(groups: number[]): string[] {
  const [a, b, c, d, e, f, g, h] = groups;
  const zeros = (...values: number[]) => values.every((v) => v === 0);
  if (zeros(a, b, c, d) && ((e === 0 && f === 0xffff) || (e === 0xffff && f === 0))) return [ipv4Of(g, h)];
  if (a === 0x64 && b === 0xff9b && zeros(c, d, e, f)) return [ipv4Of(g, h)];
  if (a === 0x2002) return [ipv4Of(b, c)];
  if (a === 0x2001 && b === 0) return [ipv4Of(c, d), ipv4Of(g ^ 0xffff, h ^ 0xffff)];
  return [];
}

/** Whether a webhook may not call this address (anything that is not an IP address counts as private). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  const canonical = groups.map((group) => group.toString(16)).join(':');
  return blocked.check(canonical, 'ipv6') || embeddedIpv4(groups).some((v4) => blocked.check(v4, 'ipv4'));
}

const privateAddressError = () =>
  badRequest(WEBHOOK_MESSAGES.privateAddress, { setting: WEBHOOK_PRIVATE_SETTING });

/**
 * A `lookup` for outgoing connections that resolves the host and refuses it when any of its addresses
 * is private: the socket connects to an address checked here, so a name that resolves to a public
 * address when checked and to a private one when connecting (DNS rebinding) cannot slip through.
 */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    if (addresses.length === 0 || addresses.some((found) => isPrivateAddress(found.address)))
      return callback(privateAddressError(), '');
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * Checks that a webhook URL is http(s) without credentials and, unless private addresses are allowed,
 * that its host is a public address or a name whose every address is public. Answers 400 naming the url
 * otherwise. Delivery checks again when it connects (`publicOnlyLookup`).
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = webhookUrl(text, allowPrivate);
  const host = hostOf(url);
  if (allowPrivate || net.isIP(host)) return url;
  const addresses = await new Promise<string[]>((resolve, reject) =>
    dns.lookup(host, { all: true }, (err, found) =>
      err ? reject(err) : resolve(found.map((a) => a.address)),
    ),
  ).catch(() => {
    throw badRequest(WEBHOOK_MESSAGES.unresolvable(host));
  });
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw privateAddressError();
  return url;
}

/** The URL's host without the brackets of an IPv6 address. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The checks of a webhook URL that need no name resolved: http(s), no credentials, and (unless private
 * addresses are allowed) not a private IP address. The URL parser has already read decimal, octal and
 * hexadecimal IPv4 spellings (`2130706433`, `0177.1`, `0x7f.1`) as the address they name.
 */
export function webhookUrl(text: string, allowPrivate: boolean): URL {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(WEBHOOK_MESSAGES.badScheme);
  if (url.username || url.password) throw badRequest('url: Credentials in the URL are not allowed');
  const host = hostOf(url);
  if (!allowPrivate && net.isIP(host) && isPrivateAddress(host)) throw privateAddressError();
  return url;
}
