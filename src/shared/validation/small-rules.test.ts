import fc from 'fast-check';
import { toKebabCase } from '../text/slug';
import { formActions, decideSave } from './form-actions';
import { generatableValue, isGeneratedField } from './generatable';
import { clampLabelWidth } from './label-width';
import { applyNameSlugs, nameSlugValue } from './name-slug';
import { selectDisplayOptions, selectOptionLabel } from './select-options';
import { dedupeTags } from './tags';

describe('dedupeTags', () => {
  it('removes duplicates and blanks, keeping first order', () => {
    expect(dedupeTags(['news', ' news ', '', 'sport', 'News', 'sport'])).toEqual(['news', 'sport', 'News']);
  });

  it('is idempotent, duplicate-free and keeps every non-blank entry', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tags) => {
        const result = dedupeTags(tags);
        expect(dedupeTags(result)).toEqual(result);
        expect(new Set(result).size).toBe(result.length);
        for (const tag of tags) if (tag.trim()) expect(result).toContain(tag.trim());
      }),
    );
  });
});

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

describe('generatable text', () => {
  it('is generated and read-only only above a length of 10', () => {
    expect(isGeneratedField({ generateLength: 10 })).toBe(false);
    expect(isGeneratedField({ generateLength: 11 })).toBe(true);
  });

  it('fills an empty generated field with a random alphanumeric string of that length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 11, max: 64 }),
        fc.constantFrom(undefined, null, ''),
        (length, stored) => {
          expect(generatableValue({ generateLength: length }, stored)).toMatch(
            new RegExp(`^[A-Za-z0-9]{${length}}$`),
          );
        },
      ),
    );
  });

  it('keeps a stored value, and leaves short ones empty for editing', () => {
    expect(generatableValue({ generateLength: 20 }, 'kept')).toBe('kept');
    expect(generatableValue({ generateLength: 10 }, undefined)).toBe('');
    expect(generatableValue({ generateLength: 0 }, 'typed')).toBe('typed');
  });
});

describe('select options', () => {
  const options = [
    { value: 'a', label: 'Alpha' },
    { value: 'b', label: 'Beta' },
  ];

  it("labels a value no longer among the options '--Old Value--{value}'", () => {
    expect(selectOptionLabel(options, 'a')).toBe('Alpha');
    expect(selectOptionLabel(options, 'z')).toBe('--Old Value--z');
  });

  it('offers stored old values after the options', () => {
    expect(selectDisplayOptions(options, 'z')).toEqual([...options, { value: 'z', label: '--Old Value--z' }]);
    expect(selectDisplayOptions(options, ['b', 'y', 'y'])).toEqual([
      ...options,
      { value: 'y', label: '--Old Value--y' },
    ]);
    expect(selectDisplayOptions(options, null)).toEqual(options);
    expect(selectDisplayOptions(options, '')).toEqual(options);
  });
});

describe('clampLabelWidth', () => {
  it('defaults to 5', () => {
    expect(clampLabelWidth()).toBe(5);
    expect(clampLabelWidth(null)).toBe(5);
    expect(clampLabelWidth(Number.NaN)).toBe(5);
  });

  it('clamps to whole numbers from 1 to 12', () => {
    expect(clampLabelWidth(0)).toBe(1);
    expect(clampLabelWidth(13)).toBe(12);
    expect(clampLabelWidth(7)).toBe(7);
    fc.assert(
      fc.property(fc.double(), (width) => {
        const clamped = clampLabelWidth(width);
        expect(Number.isInteger(clamped)).toBe(true);
        expect(clamped).toBeGreaterThanOrEqual(1);
        expect(clamped).toBeLessThanOrEqual(12);
      }),
    );
  });
});

describe('formActions', () => {
  it('enables Save only when dirty and valid or saving with errors is allowed; Reset only when dirty', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (dirty, valid, allowSaveWithErrors) => {
        expect(formActions({ dirty, valid, allowSaveWithErrors })).toEqual({
          canSave: dirty && (valid || allowSaveWithErrors),
          canReset: dirty,
        });
      }),
    );
    expect(formActions({ dirty: true, valid: false })).toEqual({ canSave: false, canReset: true });
  });
});

describe('decideSave', () => {
  it('saves a valid item without errors', () => {
    expect(decideSave({})).toEqual({ allowed: true, hasErrors: false });
    expect(decideSave({}, true)).toEqual({ allowed: true, hasErrors: false });
  });

  it("blocks an invalid item with 'Please fix validation errors before saving'", () => {
    expect(decideSave({ name: 'Name is required' })).toEqual({
      allowed: false,
      message: 'Please fix validation errors before saving',
    });
  });

  it('stores an invalid item with errors and the incomplete banner when allowed', () => {
    expect(decideSave({ name: 'Name is required' }, true)).toEqual({
      allowed: true,
      hasErrors: true,
      banner: 'This item is incomplete. You may save it as is. Finish editing before publishing.',
    });
  });
});
