import dns from 'node:dns/promises';
import net from 'node:net';
import { WEBHOOK_MESSAGES, WEBHOOK_PRIVATE_SETTING } from '@shared/api/webhooks';
import { badRequest } from '../http/errors';

/** Private, loopback, link-local and other non-public ranges webhooks may not call (SSRF). */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Checks that a webhook URL is http(s) and, unless private addresses are allowed, that every address
 * its host resolves to is public. Answers 400 naming the url otherwise.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(WEBHOOK_MESSAGES.badScheme);
  if (url.username || url.password) throw badRequest('url: Credentials in the URL are not allowed');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw badRequest(WEBHOOK_MESSAGES.unresolvable(host));
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw badRequest(WEBHOOK_MESSAGES.privateAddress, { setting: WEBHOOK_PRIVATE_SETTING });
  return url;
}
