import fc from 'fast-check';
import { toKebabCase } from '../text/slug';
import type { BlockType, SchemaType } from '../schemas/types';
import {
  applyNameSlugs,
  applyNameSlugsDeep,
  fixedNameSlugs,
  nameSlugValue,
  slugChanges,
  slugsNeedBasis,
  urlChangeMessage,
} from './name-slug';

describe('nameSlugValue', () => {
  it('turns typed text into kebab-case', () => {
    expect(nameSlugValue('My First Post', 'ignored')).toBe('my-first-post');
  });

  it('keeps typed data keys as typed where the field keeps them, and kebab-cases other text', () => {
    expect(nameSlugValue('firstName', 'ignored', true)).toBe('firstName');
    expect(nameSlugValue('page_view', 'ignored', true)).toBe('page_view');
    expect(nameSlugValue('First Name', 'ignored', true)).toBe('first-name');
    expect(nameSlugValue('', 'Page View', true)).toBe('page-view');
    expect(nameSlugValue('firstName', 'ignored')).toBe('first-name');
    const fields = [
      { key: 'name', label: 'Name', type: 'text' as const },
      { key: 'key', label: 'Key', type: 'name-slug' as const, from: 'name', keepsDataKeys: true },
    ];
    expect(applyNameSlugs(fields, { name: 'Page view', key: 'page_view' })).toEqual({
      name: 'Page view',
      key: 'page_view',
    });
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

describe('stable slugs', () => {
  const fields = [
    { key: 'name', label: 'Name', type: 'text' as const },
    { key: 'slug', label: 'Slug', type: 'name-slug' as const, from: 'name' },
  ];
  const saved = { name: 'Autumn Tea Launch', slug: 'autumn-tea-launch' };

  it('fixes a slug once the item has been published or the slug was typed by hand', () => {
    expect(fixedNameSlugs(fields, saved, false)).toEqual(new Set());
    expect(fixedNameSlugs(fields, { name: 'Draft' }, false)).toEqual(new Set());
    expect(fixedNameSlugs(fields, saved, true)).toEqual(new Set(['slug']));
    expect(fixedNameSlugs(fields, { ...saved, slug: 'tea' }, false)).toEqual(new Set(['slug']));
  });

  it('derives an unchanged slug from the new name only while it follows the name', () => {
    const renamed = { name: 'Autumn Tea Launch Now Shipping', slug: 'autumn-tea-launch' };
    expect(applyNameSlugs(fields, renamed, { data: saved, fixed: new Set() }).slug).toBe(
      'autumn-tea-launch-now-shipping',
    );
    expect(applyNameSlugs(fields, renamed, { data: saved, fixed: new Set(['slug']) }).slug).toBe(
      'autumn-tea-launch',
    );
    expect(
      applyNameSlugs(fields, { ...renamed, slug: 'Tea Time' }, { data: saved, fixed: new Set() }).slug,
    ).toBe('tea-time');
    expect(
      applyNameSlugs(fields, { ...renamed, slug: '' }, { data: saved, fixed: new Set(['slug']) }).slug,
    ).toBe('autumn-tea-launch-now-shipping');
  });

  it('needs the stored version only for a typed slug other than the name derives', () => {
    const renamed = { name: 'Autumn Tea Launch Now Shipping', slug: 'autumn-tea-launch' };
    expect(slugsNeedBasis(fields, renamed)).toBe(true);
    expect(slugsNeedBasis(fields, { ...renamed, slug: 'autumn-tea-launch-now-shipping' })).toBe(false);
    expect(slugsNeedBasis(fields, { ...renamed, slug: 'Autumn Tea Launch Now Shipping' })).toBe(false);
    expect(slugsNeedBasis(fields, { ...renamed, slug: '' })).toBe(false);
    expect(slugsNeedBasis(fields, { name: 'No slug' })).toBe(false);
    expect(slugsNeedBasis([fields[0]], renamed)).toBe(false);
  });

  it('makes the same slugs without the stored version where it does not need it', () => {
    const keyFields = [fields[0], { ...fields[1], keepsDataKeys: true }];
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('', 'Tea Time', 'tea-time', 'teaTime'),
    );
    fc.assert(
      fc.property(
        fc.boolean(),
        text,
        text,
        text,
        text,
        fc.boolean(),
        (keepsKeys, name, typed, storedName, storedSlug, published) => {
          const schemaFields = keepsKeys ? keyFields : fields;
          const data = { name, slug: typed };
          if (slugsNeedBasis(schemaFields, data)) return;
          const stored = { name: storedName, slug: nameSlugValue(storedSlug, storedName, keepsKeys) };
          const basis = { data: stored, fixed: fixedNameSlugs(schemaFields, stored, published) };
          expect(applyNameSlugs(schemaFields, data, basis)).toEqual(applyNameSlugs(schemaFields, data));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('names the slugs a publish would change', () => {
    expect(slugChanges(fields, saved, { ...saved, slug: 'autumn-tea' })).toEqual([
      { key: 'slug', from: 'autumn-tea-launch', to: 'autumn-tea' },
    ]);
    expect(slugChanges(fields, saved, { ...saved, name: 'Renamed' })).toEqual([]);
    expect(urlChangeMessage('a', 'b')).toBe('The URL changes from a to b');
  });
});

describe('applyNameSlugsDeep', () => {
  const section: BlockType = {
    name: 'section',
    title: 'Section',
    fields: [
      { key: 'heading', label: 'Heading', type: 'text' },
      { key: 'anchor', label: 'Anchor', type: 'name-slug', from: 'heading' },
      { key: 'inner', label: 'Inner', type: 'blocks', blockTypes: ['section'] },
    ],
  };
  const schema: Pick<SchemaType, 'fields' | 'blockTypes'> = {
    fields: [
      { key: 'name', label: 'Name', type: 'text' },
      { key: 'slug', label: 'Slug', type: 'name-slug', from: 'name' },
      { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['section'] },
    ],
    blockTypes: { section },
  };

  it("normalises each block's slugs from the same block's fields, at any depth", () => {
    const data = {
      name: 'Spring Sale',
      sections: [
        {
          _type: 'section',
          _key: 'a',
          heading: 'Why Us',
          anchor: '',
          inner: [{ _type: 'section', _key: 'b', heading: 'x', anchor: 'Typed Anchor' }],
        },
        { _type: 'section', _key: 'c', heading: 'Prices' },
      ],
    };
    expect(applyNameSlugsDeep(schema, data)).toEqual({
      name: 'Spring Sale',
      slug: 'spring-sale',
      sections: [
        {
          _type: 'section',
          _key: 'a',
          heading: 'Why Us',
          anchor: 'why-us',
          inner: [{ _type: 'section', _key: 'b', heading: 'x', anchor: 'typed-anchor' }],
        },
        { _type: 'section', _key: 'c', heading: 'Prices', anchor: 'prices' },
      ],
    });
    expect(data.sections[0].anchor).toBe('');
  });
});
