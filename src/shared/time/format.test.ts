import fc from 'fast-check';
import {
  datePickerBoundsHint,
  datePickerHint,
  defaultTimezone,
  formatInZone,
  formatPickerValue,
  parsePickerValue,
  workspaceTimezones,
} from './format';
import { DEFAULT_TIMEZONES } from './zones';

describe('formatInZone', () => {
  it("uses 'ddd MMM Do, YYYY h:mm A' in the given zone", () => {
    expect(formatInZone('2024-03-01T17:05:00Z', 'America/New_York')).toBe('Fri Mar 1st, 2024 12:05 PM');
    expect(formatInZone('2024-03-01T17:05:00Z', 'America/Los_Angeles')).toBe('Fri Mar 1st, 2024 9:05 AM');
  });

  it('follows daylight saving time', () => {
    expect(formatInZone('2024-07-22T16:00:00Z', 'America/New_York')).toBe('Mon Jul 22nd, 2024 12:00 PM');
  });
});

describe('defaultTimezone', () => {
  it('is the guessed zone when the runtime knows it', () => {
    expect(defaultTimezone(() => 'Europe/Paris')).toBe('Europe/Paris');
  });

  it('falls back to America/New_York when the guess is missing, unknown or throws', () => {
    expect(defaultTimezone(() => undefined)).toBe('America/New_York');
    expect(defaultTimezone(() => 'Mars/Olympus_Mons')).toBe('America/New_York');
    expect(
      defaultTimezone(() => {
        throw new Error('no Intl');
      }),
    ).toBe('America/New_York');
  });
});

describe('workspaceTimezones', () => {
  it("uses the spec's defaults without basics or zones", () => {
    expect(workspaceTimezones()).toEqual([...DEFAULT_TIMEZONES]);
    expect(workspaceTimezones({ timezones: [] })).toEqual([...DEFAULT_TIMEZONES]);
    expect(workspaceTimezones(null)).toEqual([...DEFAULT_TIMEZONES]);
  });

  it("uses the workspace's basics.timezones, without unknown names or duplicates", () => {
    expect(
      workspaceTimezones({ timezones: ['Europe/Paris', 'Nowhere/Else', 'Europe/Paris', 'UTC'] }),
    ).toEqual(['Europe/Paris', 'UTC']);
  });
});

describe('parsePickerValue', () => {
  it('reads the 24-hour mask as a wall-clock time in the zone', () => {
    expect(parsePickerValue('2024/03/01 13:30', 'America/New_York')).toBe('2024-03-01T18:30:00.000Z');
    expect(parsePickerValue('2024/07/01 00:00', 'America/Los_Angeles')).toBe('2024-07-01T07:00:00.000Z');
    expect(parsePickerValue('2024/03/01 23:59', 'UTC')).toBe('2024-03-01T23:59:00.000Z');
  });

  it.each([
    '2024/3/1 13:30',
    '2024-03-01 13:30',
    '2024/03/01 1:30 PM',
    '2024/13/01 10:00',
    '2023/02/29 10:00',
    '2024/04/31 10:00',
    '2024/03/01 24:00',
    '2024/03/01 10:60',
    '',
  ])('refuses %j', (text) => {
    expect(parsePickerValue(text, 'UTC')).toBeNull();
  });

  it('refuses an unknown zone', () => {
    expect(parsePickerValue('2024/03/01 10:00', 'Nowhere/Else')).toBeNull();
  });

  it('round-trips with formatPickerValue in zones without daylight saving', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('UTC', 'Asia/Kolkata', 'America/Phoenix', 'Asia/Tokyo'),
        (year, month, day, hour, minute, zone) => {
          const text = `${year}/${pad(month)}/${pad(day)} ${pad(hour)}:${pad(minute)}`;
          const iso = parsePickerValue(text, zone);
          expect(iso).not.toBeNull();
          expect(formatPickerValue(iso!, zone)).toBe(text);
        },
      ),
    );
  });
});

describe('datePickerHint', () => {
  it("names the open ends 'Beginning of Time' and 'End of Time'", () => {
    expect(datePickerHint()).toBe('Select between Beginning of Time and End of Time');
    expect(datePickerHint(null, '2024/12/31')).toBe('Select between Beginning of Time and 2024/12/31');
    expect(datePickerHint('2024/01/01', undefined)).toBe('Select between 2024/01/01 and End of Time');
  });

  it('formats ISO bounds in the zone with the display format', () => {
    expect(datePickerHint('2024-03-01T17:05:00Z', '2024-03-02T17:05:00Z', 'America/New_York')).toBe(
      'Select between Fri Mar 1st, 2024 12:05 PM and Sat Mar 2nd, 2024 12:05 PM',
    );
  });
});

describe('datePickerBoundsHint', () => {
  it('says nothing for a field open at both ends, and the hint once one bound is set', () => {
    // A date field without bounds showed 'Select between Beginning of Time and End of Time' instead of its help.
    expect(datePickerBoundsHint()).toBeUndefined();
    expect(datePickerBoundsHint(null, null, 'America/New_York')).toBeUndefined();
    expect(datePickerBoundsHint(null, '2024/12/31')).toBe('Select between Beginning of Time and 2024/12/31');
  });
});
