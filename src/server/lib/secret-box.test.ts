import { openSecret, sealSecret } from './secret-box';

describe('secret box', () => {
  it('opens what it sealed, and nothing sealed under another secret or purpose', () => {
    const sealed = sealSecret('master', 'webhooks', 'whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealSecret('master', 'webhooks', 'whsec_abc')).not.toBe(sealed);
    expect(openSecret('master', 'webhooks', sealed)).toBe('whsec_abc');
    expect(() => openSecret('other', 'webhooks', sealed)).toThrow();
    expect(() => openSecret('master', 'tokens', sealed)).toThrow();
    expect(() => openSecret('master', 'webhooks', 'whsec_abc')).toThrow();
  });
});
