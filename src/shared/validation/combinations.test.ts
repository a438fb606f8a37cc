import fc from 'fast-check';
import { validateCombinations } from './combinations';

describe('validateCombinations', () => {
  it('accepts rows with unique names and an override each', () => {
    expect(
      validateCombinations('combinations', [
        { _slug: 'us-mobile', variations: { locale: 'en-US' }, overrides: { text: 'Hi' } },
        { _slug: 'fr-desktop', variations: { locale: 'fr-FR' }, overrides: { text: 'Salut' } },
      ]),
    ).toEqual({});
  });

  it('needs a Name', () => {
    expect(validateCombinations('c', [{ _slug: '  ', overrides: { text: 'x' } }])).toEqual({
      'c.0._slug': 'Name is required',
    });
    expect(validateCombinations('c', [{ overrides: { text: 'x' } }])).toEqual({
      'c.0._slug': 'Name is required',
    });
  });

  it('needs names unique as kebab-case, reporting the later rows', () => {
    expect(
      validateCombinations('c', [
        { _slug: 'Summer Sale', overrides: { a: 1 } },
        { _slug: 'summer-sale', overrides: { a: 1 } },
        { _slug: 'SUMMER  sale', overrides: { a: 1 } },
      ]),
    ).toEqual({ 'c.1._slug': 'Name must be unique', 'c.2._slug': 'Name must be unique' });
  });

  it('needs at least one Override with a value', () => {
    expect(validateCombinations('c', [{ _slug: 'a', overrides: { text: '', tags: [] } }])).toEqual({
      'c.0.overrides': 'At least one Override is required',
    });
    expect(validateCombinations('c', [{ _slug: 'a', overrides: { flag: false } }])).toEqual({});
  });

  it('reports a duplicate name exactly when a slug repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 6 }), (slugs) => {
        const errors = validateCombinations(
          'c',
          slugs.map((slug) => ({ _slug: slug, overrides: { text: 'x' } })),
        );
        const duplicates = slugs.filter((slug, index) => slugs.indexOf(slug) !== index).length;
        expect(Object.keys(errors)).toHaveLength(duplicates);
      }),
    );
  });
});
