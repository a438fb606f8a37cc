import { retryDelayMs, WEBHOOK_MAX_TRIES } from '../jobs/webhook-sender';
import { isPrivateAddress } from './addresses';
import { signatureHeader } from './signature';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.4.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.4.4'])('allows %s', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );
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
