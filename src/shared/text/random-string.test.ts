import fc from 'fast-check';
import { ALPHANUMERIC, randomAlphanumeric } from './random-string';

describe('randomAlphanumeric', () => {
  it('has exactly the asked length and only letters and digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), (length) => {
        const text = randomAlphanumeric(length);
        expect(text).toHaveLength(length);
        expect(text).toMatch(/^[A-Za-z0-9]*$/);
      }),
    );
  });

  it('skips bytes that would bias the alphabet', () => {
    // 248 and above fall outside the largest multiple of 62 below 256 and must be dropped.
    let call = 0;
    const bytes = (array: Uint8Array<ArrayBuffer>) => {
      array.fill(call++ === 0 ? 250 : 1);
      return array;
    };
    expect(randomAlphanumeric(3, bytes)).toBe(ALPHANUMERIC[1].repeat(3));
  });

  it('differs between calls', () => {
    expect(randomAlphanumeric(32)).not.toBe(randomAlphanumeric(32));
  });
});
