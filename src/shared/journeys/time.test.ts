import { describe, expect, it } from 'vitest';
import { dateMoment, dateOf, nextTimeOfDay, quietUntil, zoneOf } from './time';

const at = (iso: string) => new Date(iso);

describe('nextTimeOfDay', () => {
  it('finds the next time of day in the zone, on an allowed weekday', () => {
    // Wednesday 2 December 2026, 10:00 in Tokyo.
    const now = at('2026-12-02T01:00:00Z');
    expect(nextTimeOfDay(now, 'Asia/Tokyo', '09:00')).toEqual(at('2026-12-03T00:00:00Z'));
    expect(nextTimeOfDay(now, 'Asia/Tokyo', '11:30')).toEqual(at('2026-12-02T02:30:00Z'));
    // The next Monday, 7 December.
    expect(nextTimeOfDay(now, 'Asia/Tokyo', '09:00', [1])).toEqual(at('2026-12-07T00:00:00Z'));
    // Phoenix is 16 hours behind Tokyo: still Tuesday 1 December, 18:00.
    expect(nextTimeOfDay(now, 'America/Phoenix', '20:00', [2])).toEqual(at('2026-12-02T03:00:00Z'));
  });
});

describe('dates', () => {
  it('reads the date of a date or a date-time, and nothing else', () => {
    expect(dateOf('1990-02-28')).toBe('1990-02-28');
    expect(dateOf('2026-12-24T10:00:00Z')).toBe('2026-12-24');
    expect(dateOf('24/12/2026')).toBeNull();
    expect(dateOf(20261224)).toBeNull();
  });

  it('places a date with its offset and time in the zone, once or every year', () => {
    const now = at('2026-12-02T00:00:00Z');
    const rule = { offsetDays: -2, at: '10:00', yearly: false };
    expect(dateMoment('2026-12-10', rule, 'UTC', now)).toEqual(at('2026-12-08T10:00:00Z'));
    expect(dateMoment('2025-01-01', rule, 'UTC', now)).toEqual(at('2024-12-30T10:00:00Z'));
    // A birthday: its next occurrence, 29 February becoming 1 March in other years.
    const yearly = { offsetDays: 0, at: '09:00', yearly: true };
    expect(dateMoment('1990-01-15', yearly, 'Asia/Tokyo', now)).toEqual(at('2027-01-15T00:00:00Z'));
    expect(dateMoment('2000-02-29', yearly, 'UTC', now)).toEqual(at('2027-03-01T09:00:00Z'));
  });
});

describe('quietUntil', () => {
  const quiet = { start: 21, end: 8 };
  it('answers when the quiet hours end, across midnight, or null outside them', () => {
    // 23:00 in Tokyo: quiet until 08:00 the next morning.
    expect(quietUntil(at('2026-12-02T14:00:00Z'), 'Asia/Tokyo', quiet)).toEqual(at('2026-12-02T23:00:00Z'));
    // 07:00 UTC is in them too; 12:00 is not.
    expect(quietUntil(at('2026-12-02T07:00:00Z'), 'UTC', quiet)).toEqual(at('2026-12-02T08:00:00Z'));
    expect(quietUntil(at('2026-12-02T12:00:00Z'), 'UTC', quiet)).toBeNull();
    expect(quietUntil(at('2026-12-02T12:00:00Z'), 'UTC', null)).toBeNull();
  });
});

describe('zoneOf', () => {
  it("takes the profile's known zone, else the fallback", () => {
    expect(zoneOf({ timezone: 'Asia/Tokyo' }, 'UTC')).toBe('Asia/Tokyo');
    expect(zoneOf({ timezone: 'Mars/Base' }, 'UTC')).toBe('UTC');
    expect(zoneOf(null, 'Europe/Paris')).toBe('Europe/Paris');
  });
});
