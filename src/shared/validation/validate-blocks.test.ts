import { landingPage, landingPageData, sectionsField } from '../schemas/blocks-test-data';
import type { SchemaType } from '../schemas/types';
import { validateLocalizedItem } from '../locales/validate';
import { isItemValid, validateItem } from './validate-item';

const requiredSections: SchemaType = {
  ...landingPage,
  fields: [landingPage.fields[0], { ...sectionsField, required: true, maxBlocks: 2 }],
};

describe('validateItem: blocks fields', () => {
  it('says a required blocks field is required when it holds no block, and when it holds too many', () => {
    expect(validateItem(requiredSections, { name: 'x', sections: [] })).toEqual({
      sections: 'Sections is required',
    });
    expect(validateItem(requiredSections, { name: 'x' })).toEqual({ sections: 'Sections is required' });
    expect(
      validateItem(requiredSections, { name: 'x', sections: [{ _type: 'hero', _key: 'a', title: 'T' }] }),
    ).toEqual({});
    const three = ['a', 'b', 'c'].map((key) => ({ _type: 'call-to-action', _key: key }));
    expect(validateItem(requiredSections, { name: 'x', sections: three })).toEqual({
      sections: 'Sections allows at most 2 blocks',
    });
  });

  it("validates each block's fields at their paths, nested blocks too", () => {
    const data = landingPageData();
    delete (data.sections[0] as Record<string, unknown>).title;
    const features = data.sections[1].features as Record<string, unknown>[];
    features[0].name = '';
    features[1].rank = 12;
    expect(validateItem(landingPage, landingPageData())).toEqual({});
    expect(isItemValid(landingPage, data)).toBe(false);
    expect(validateItem(landingPage, data)).toEqual({
      'sections.0.title': 'Title is required',
      'sections.1.features.0.name': 'Name is required',
      'sections.1.features.1.rank': 'Rank must be at most 9',
    });
  });

  it("evaluates display conditions against the block's own data, and runs validators with %l and %v", () => {
    const hero = (fields: Record<string, unknown>) => ({
      name: 'x',
      hasButton: true,
      sections: [{ _type: 'hero', _key: 'a', title: 'T', ...fields }],
    });
    // The item's own hasButton does not show the block's button text.
    expect(validateItem(landingPage, hero({}))).toEqual({});
    expect(validateItem(landingPage, hero({ hasButton: true }))).toEqual({
      'sections.0.buttonText': 'Button text is required',
    });
    expect(
      validateItem(landingPage, hero({ hasButton: true, buttonText: 'Press this very long button' })),
    ).toEqual({
      'sections.0.buttonText': 'Button text is too long: Press this very long button',
    });
    // Blocks of a type the model does not have are left to the structural check.
    expect(
      validateItem(landingPage, {
        name: 'x',
        sections: [{ _type: 'gone', _key: 'a' }, 'junk', hero({}).sections[0]],
      }),
    ).toEqual({});
  });

  it('validates a localised blocks field per locale, with the block paths under the locale', () => {
    const localized: SchemaType = {
      ...landingPage,
      fields: [landingPage.fields[0], { ...sectionsField, localized: true, requiredInLocales: ['fr-FR'] }],
      locales: { default: 'en-US', others: ['fr-FR'] },
    };
    expect(
      validateLocalizedItem(localized, {
        name: 'x',
        sections: [{ _type: 'hero', _key: 'a' }],
        _locales: {
          'fr-FR': {
            sections: [
              { _type: 'hero', _key: 'b', title: 'Bonjour' },
              { _type: 'hero', _key: 'c' },
            ],
          },
        },
      }),
    ).toEqual({
      'sections.0.title': 'Title is required',
      '_locales.fr-FR.sections.1.title': 'Title is required',
    });
    expect(validateLocalizedItem(localized, { name: 'x' })).toEqual({
      '_locales.fr-FR.sections': 'Sections (fr-FR) is required',
    });
  });
});
