import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { WEBHOOK_MESSAGES } from '@shared/api/webhooks';
import { postJson } from '../jobs/post-json';
import { retryDelayMs, WEBHOOK_MAX_TRIES } from '../jobs/webhook-sender';
import { isPrivateAddress, publicOnlyLookup, webhookUrl } from './addresses';
import { signatureHeader } from './signature';

// Broke: IPv4-compatible (`::127.0.0.1`), NAT64, 6to4, Teredo and site-local IPv6 addresses, and
// documentation ranges of IPv4, counted as public.
describe('isPrivateAddress', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['private', '10.0.0.8'],
    ['private', '172.16.4.1'],
    ['private', '172.31.255.255'],
    ['private', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['this network', '0.0.0.0'],
    ['shared (CGNAT)', '100.64.0.1'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['documentation', '192.0.2.1'],
    ['documentation', '198.51.100.7'],
    ['documentation', '203.0.113.9'],
    ['benchmarking', '198.18.0.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['multicast', '224.0.0.1'],
    ['reserved', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 site-local', 'fec0::1'],
    ['IPv6 unique local', 'fd00::1'],
    ['IPv6 unique local', 'fc00::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 discard', '100::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1'],
    ['IPv4-mapped, spelt out', '0:0:0:0:0:ffff:10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible loopback in hex', '::7f00:1'],
    ['IPv4-compatible public', '::8.8.8.8'],
    ['IPv4-translated private', '::ffff:0:a00:1'],
    ['NAT64 loopback', '64:ff9b::7f00:1'],
    ['NAT64 metadata', '64:ff9b::169.254.169.254'],
    ['local-use NAT64', '64:ff9b:1::808:808'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private address', '2002:c0a8:101::'],
    ['Teredo with a private server', '2001:0:a00:1::1'],
    ['Teredo with a loopback client', '2001:0:808:808::80ff:fffe'],
    ['not an address', 'localhost'],
  ])('refuses %s %s', (_, address) => expect(isPrivateAddress(address)).toBe(true));
  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '1.1.1.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.4.4',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows %s', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('webhookUrl', () => {
  // Broke: `http://[::127.0.0.1]/` and `http://[64:ff9b::7f00:1]/` were accepted as webhook targets.
  it.each([
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'https://0xa9.0xfe.0xa9.0xfe/latest',
  ])('refuses %s, and allows it with WEBHOOK_ALLOW_PRIVATE=1', (url) => {
    expect(() => webhookUrl(url, false)).toThrow(WEBHOOK_MESSAGES.privateAddress);
    expect(webhookUrl(url, true).href).toBe(new URL(url).href);
  });
});

describe('publicOnlyLookup', () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<unknown>((resolve, reject) =>
      publicOnlyLookup(host, { all }, (err, address) => (err ? reject(err) : resolve(address))),
    );

  it('refuses a name that resolves to a private address, in either form a socket asks', async () => {
    await expect(lookup('localhost', false)).rejects.toThrow(WEBHOOK_MESSAGES.privateAddress);
    await expect(lookup('localhost', true)).rejects.toThrow(WEBHOOK_MESSAGES.privateAddress);
  });

  // Broke: delivery resolved the name to check it, and the request resolved it again to connect (DNS rebinding).
  it('is the lookup the request connects with: the socket goes to the address it answered', async () => {
    const server = http.createServer((_, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const asked: string[] = [];
    // Answers the receiver's address for a name no resolver knows: reaching it proves no other resolution ran.
    const pinned: LookupFunction = (host, options, callback) => {
      asked.push(host);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };
    try {
      const never = new AbortController().signal;
      const outcome = await postJson(`http://hook.invalid:${port}/x`, '{}', {}, never, 60_000, pinned);
      expect(outcome).toEqual({ statusCode: 204, error: null });
      expect(asked).toEqual(['hook.invalid']);
      const refused = await postJson(`http://localhost:${port}/x`, '{}', {}, never, 60_000, publicOnlyLookup);
      expect(refused).toEqual({ statusCode: null, error: WEBHOOK_MESSAGES.privateAddress });
    } finally {
      server.close();
    }
  });
});

describe('retryDelayMs', () => {
  it('waits about 10 s first, then doubles, and spreads the tries over about an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000))).toEqual([10_000, 20_000, 40_000, 80_000]);
    let total = 0;
    for (let n = 1; n < WEBHOOK_MAX_TRIES; n++) total += retryDelayMs(n, 10_000);
    expect(WEBHOOK_MAX_TRIES).toBeGreaterThanOrEqual(6);
    expect(total / 60_000).toBeGreaterThan(45);
    expect(total / 60_000).toBeLessThan(90);
  });
});

describe('signatureHeader', () => {
  it('signs "{t}.{body}" with HMAC-SHA256 in hex', () => {
    // Computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(signatureHeader('whsec_test', '{"a":1}', new Date(1_700_000_000_500))).toBe(
      't=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    );
  });
});
