import fc from 'fast-check';
import { isDataKey, toDataKey, toKebabCase } from './slug';

describe('toKebabCase', () => {
  it.each([
    ['Live', 'live'],
    ['Blog Posts!', 'blog-posts'],
    ['  Pre  Production ', 'pre-production'],
    ['Café Crème', 'cafe-creme'],
    ['landingSchema', 'landing-schema'],
    ['---', ''],
  ])('%s → %s', (input, expected) => {
    expect(toKebabCase(input)).toBe(expected);
  });

  it('is idempotent and only ever yields lowercase words joined by single dashes', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const slug = toKebabCase(text);
        expect(toKebabCase(slug)).toBe(slug);
        expect(slug).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
      }),
    );
  });
});

describe('toDataKey', () => {
  it.each([
    ['firstName', 'firstName'],
    ['page_view', 'page_view'],
    ['plan-tier', 'plan-tier'],
    ['First Name', 'first-name'],
    ['  email ', 'email'],
    ['Email Address', 'email-address'],
    ['1st', '1st'],
  ])('%s → %s', (input, expected) => {
    expect(toDataKey(input)).toBe(expected);
  });

  it('keeps data keys of up to 100 characters only', () => {
    expect(isDataKey('a'.repeat(100))).toBe(true);
    expect(isDataKey('a'.repeat(101))).toBe(false);
    expect(isDataKey('1st')).toBe(false);
    expect(isDataKey('has space')).toBe(false);
  });
});
