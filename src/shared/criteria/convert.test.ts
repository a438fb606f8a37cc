import fc from 'fast-check';
import { toStoredDate } from './convert';

/** The conversion without the shortcut for texts already in the stored form: parse, then print. */
function parsedAndPrinted(raw: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw.trim())) return undefined;
  const time = Date.parse(raw.trim());
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const digits = (count: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: count, maxLength: count }).map((d) => d.join(''));

describe('toStoredDate', () => {
  it('keeps a stored date of any year as it is', () => {
    fc.assert(
      fc.property(
        // fast-check's dates include the invalid one unless told not to; it has no stored form.
        fc.date({
          min: new Date('0000-01-01T00:00:00.000Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const stored = date.toISOString();
          expect(toStoredDate(stored)).toBe(stored);
        },
      ),
    );
  });

  it('gives what parsing and printing gives for any digits in the stored form', () => {
    // Day 30 of February, hour 24, second 60 and month 13 are in the form but are not their own stored
    // form: they must be parsed (or refused) as before.
    const shaped = fc
      .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
    fc.assert(
      fc.property(shaped, (text) => {
        expect(toStoredDate(text)).toBe(parsedAndPrinted(text));
      }),
      { numRuns: 5_000 },
    );
    for (const text of [
      '2024-02-29T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T23:60:00.000Z',
      '2026-01-01T23:59:60.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-13-10T00:00:00.000Z',
      '2026-01-00T00:00:00.000Z',
    ]) {
      expect(toStoredDate(text)).toBe(parsedAndPrinted(text));
    }
  });

  it('still converts other ISO forms and refuses what is not a date', () => {
    expect(toStoredDate(' 2026-03-01 ')).toBe('2026-03-01T00:00:00.000Z');
    expect(toStoredDate('2026-03-01T10:00:00+02:00')).toBe('2026-03-01T08:00:00.000Z');
    expect(toStoredDate('soon')).toBeUndefined();
    expect(toStoredDate(7)).toBeUndefined();
  });
});
