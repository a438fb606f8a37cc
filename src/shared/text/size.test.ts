import fc from 'fast-check';
import { formatSize, SIZE_UNITS } from './size';

describe('formatSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1.00 Bytes'],
    [1023, '1023.00 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024 - 1, '1.00 MB'],
    [5.25 * 1024 ** 3, '5.25 GB'],
    [1024 ** 8, '1.00 YB'],
    [1023 * 1024 ** 8, '1023.00 YB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it("gives 'Invalid size' for negative numbers and NaN", () => {
    expect(formatSize(Number.NaN)).toBe('Invalid size');
    expect(formatSize(-1)).toBe('Invalid size');
    expect(formatSize(-Number.MIN_VALUE)).toBe('Invalid size');
  });

  it("gives 'Size too large' past the largest unit", () => {
    expect(formatSize(1024 ** 9)).toBe('Size too large');
    expect(formatSize(Number.MAX_VALUE)).toBe('Size too large');
    expect(formatSize(Number.POSITIVE_INFINITY)).toBe('Size too large');
  });

  it('always shows two decimals and a figure below 1024 for positive sizes in range', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 1024 ** 9 * 0.999, noNaN: true }), (bytes) => {
        const match = /^(\d+\.\d{2}) (\w+)$/.exec(formatSize(bytes));
        expect(match).not.toBeNull();
        expect(Number(match![1])).toBeLessThan(1024);
        expect(SIZE_UNITS).toContain(match![2]);
      }),
    );
  });

  it('never shrinks as the size grows', () => {
    const rank = (text: string) => {
      const [figure, unit] = text.split(' ');
      return SIZE_UNITS.indexOf(unit as (typeof SIZE_UNITS)[number]) * 2000 + Number(figure);
    };
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        expect(rank(formatSize(small))).toBeLessThanOrEqual(rank(formatSize(large)));
      }),
    );
  });
});
