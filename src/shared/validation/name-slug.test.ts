import fc from 'fast-check';
import { toKebabCase } from '../text/slug';
import { applyNameSlugs, nameSlugValue } from './name-slug';

describe('nameSlugValue', () => {
  it('turns typed text into kebab-case', () => {
    expect(nameSlugValue('My First Post', 'ignored')).toBe('my-first-post');
  });

  it('derives from the name when cleared', () => {
    expect(nameSlugValue('', 'Hello World')).toBe('hello-world');
    expect(nameSlugValue('   ', 'Hello World')).toBe('hello-world');
    expect(nameSlugValue(null, 'Café Crème')).toBe('cafe-creme');
    expect(nameSlugValue(undefined, undefined)).toBe('');
  });

  it('is idempotent over arbitrary typed text and names', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (typed, name) => {
        const slug = nameSlugValue(typed, name);
        expect(nameSlugValue(slug, name)).toBe(slug || toKebabCase(name));
        expect(slug).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
      }),
    );
  });

  it('applies to every name-slug field of a schema', () => {
    const fields = [
      { key: 'name', label: 'Name', type: 'text' as const },
      { key: 'slug', label: 'Slug', type: 'name-slug' as const, from: 'name' },
    ];
    expect(applyNameSlugs(fields, { name: 'Big News' })).toEqual({ name: 'Big News', slug: 'big-news' });
    expect(applyNameSlugs(fields, { name: 'Big News', slug: 'Own Slug' })).toEqual({
      name: 'Big News',
      slug: 'own-slug',
    });
    expect(applyNameSlugs(fields, {})).toEqual({});
  });
});
