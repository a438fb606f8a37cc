import fc from 'fast-check';
import { toKebabCase } from './slug';

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
