import { formatStoredDate, isStoredDate } from './dates';

describe('formatStoredDate', () => {
  it('writes a stored day as a date in the locale, without a time', () => {
    // Profiles showed imported dates as '2024-08-30T00:00:00.000Z'.
    expect(formatStoredDate('2024-08-30T00:00:00.000Z', 'en-US')).toBe('Aug 30, 2024');
    expect(formatStoredDate('2024-08-30T00:00:00.000Z', 'en-GB')).toBe('30 Aug 2024');
    expect(formatStoredDate('2024-08-30', 'de-DE')).toBe('30.08.2024');
  });

  it('writes a moment with its time', () => {
    const text = formatStoredDate('2024-08-30T15:45:00.000Z', 'en-US');
    expect(text).toMatch(/^Aug 3\d, 2024, \d{1,2}:\d{2}\s?[AP]M$/);
  });
});

describe('isStoredDate', () => {
  it('knows stored days and instants from other text', () => {
    expect(isStoredDate('2024-08-30T00:00:00.000Z')).toBe(true);
    expect(isStoredDate('2024-08-30')).toBe(true);
    expect(isStoredDate('2024-13-40')).toBe(false);
    expect(isStoredDate('August 30')).toBe(false);
    expect(isStoredDate('42')).toBe(false);
  });
});
