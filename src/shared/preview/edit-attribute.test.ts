import fc from 'fast-check';
import { landingPage, landingPageData } from '../schemas/blocks-test-data';
import { EDIT_ATTRIBUTE, editAttribute, editInfoOf, parseEditAttribute } from './edit-attribute';

describe('the edit attribute', () => {
  it('names the workspace, schema, item and field path', () => {
    expect(EDIT_ATTRIBUTE).toBe('data-marquee-edit');
    expect(editAttribute('acme', 'landing-page', 'abc123', 'sections.2.title')).toBe(
      'acme:landing-page:abc123:sections.2.title',
    );
    expect(parseEditAttribute('acme:landing-page:abc123:sections.2.title')).toEqual({
      ws: 'acme',
      schema: 'landing-page',
      id: 'abc123',
      path: 'sections.2.title',
    });
  });

  it('reads back whatever it wrote', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/);
    fc.assert(
      fc.property(
        part,
        part,
        part,
        fc.array(part, { minLength: 1, maxLength: 5 }),
        (ws, schema, id, keys) => {
          const path = keys.join('.');
          expect(parseEditAttribute(editAttribute(ws, schema, id, path))).toEqual({ ws, schema, id, path });
        },
      ),
    );
  });

  it('refuses values that are not one', () => {
    for (const value of ['', 'a:b:c', 'a:b:c:d:e', 'a:b:c:', 'a::c:d', 'a:b:c:d..e', 'a:b:c:.d', 'a b:c:d:e'])
      expect(parseEditAttribute(value)).toBeUndefined();
  });
});

describe('the edit information of an item', () => {
  it('has every top-level field, every block and every field of a block, at any depth', () => {
    const info = editInfoOf('acme', landingPage, 'p1', landingPageData());
    const at = (path: string) => `acme:landing-page:p1:${path}`;
    expect(info).toMatchObject({
      name: at('name'),
      sections: at('sections'),
      'sections.0': at('sections.0'),
      'sections.0.title': at('sections.0.title'),
      'sections.0.buttonText': at('sections.0.buttonText'),
      'sections.1.features.1': at('sections.1.features.1'),
      'sections.1.features.1.icon': at('sections.1.features.1.icon'),
      'sections.2.target': at('sections.2.target'),
    });
    expect(Object.values(info).every((value) => parseEditAttribute(value) !== undefined)).toBe(true);
  });

  it('has the fields of an item without values, and skips blocks of unknown types', () => {
    const info = editInfoOf('acme', landingPage, 'p1', { sections: [{ _type: 'gone', _key: 'x' }, 'junk'] });
    expect(Object.keys(info).sort()).toEqual(['name', 'sections']);
  });
});
