import { COUNTRIES, COUNTRY_CODES, COUNTRY_OPTIONS, countryName, isCountryCode } from './countries';

describe('countries', () => {
  it('holds about 250 unique ISO 3166-1 alpha-2 codes (spec §9)', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(245);
    expect(COUNTRIES.length).toBeLessThanOrEqual(255);
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRIES.length);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('is sorted by code and every entry has a name', () => {
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    for (const { name } of COUNTRIES) expect(name.trim()).not.toBe('');
  });

  it('looks names up by code', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('FR')).toBe('France');
    expect(countryName('UK')).toBeUndefined();
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('EU')).toBe(false);
  });

  it('offers select options in the same order', () => {
    expect(COUNTRY_OPTIONS.map((option) => option.value)).toEqual(COUNTRY_CODES);
    expect(COUNTRY_OPTIONS[0]).toEqual({ value: 'AD', label: 'Andorra' });
  });
});
