import type { FieldDef } from '../schemas/types';
import { localeChanges } from './changes';

const fields: FieldDef[] = [
  { key: 'name', label: 'Title', type: 'text', localized: true },
  { key: 'body', label: 'Body', type: 'rich-text', localized: true },
  { key: 'author', label: 'Author', type: 'text' },
];
const schema = { fields, locales: { default: 'en-US', others: ['fr-FR', 'fr-CA'] } };

describe('localeChanges', () => {
  it('names the default locale when its values change, and nothing else', () => {
    expect(localeChanges(schema, { name: 'One', author: 'Ann' }, { name: 'Two', author: 'Ann' })).toEqual({
      locales: ['en-US'],
      shared: false,
    });
  });

  it('names another locale when its own values change, leaving the default alone', () => {
    const before = { name: 'One', _locales: { 'fr-FR': { name: 'Un' } } };
    const after = { name: 'One', _locales: { 'fr-FR': { name: 'Deux' } } };
    expect(localeChanges(schema, before, after)).toEqual({ locales: ['fr-FR'], shared: false });
  });

  it('counts shared fields apart from every locale', () => {
    expect(localeChanges(schema, { name: 'One', author: 'Ann' }, { name: 'One', author: 'Bob' })).toEqual({
      locales: [],
      shared: true,
    });
  });

  it('lists locales in the workspace order, the default first', () => {
    const before = { name: 'One' };
    const after = { name: 'Two', _locales: { 'fr-CA': { name: 'Deux' }, 'fr-FR': { body: '<p>Corps</p>' } } };
    expect(localeChanges(schema, before, after).locales).toEqual(['en-US', 'fr-FR', 'fr-CA']);
  });

  it('does not count a locale reading a changed value through its fallback as changed', () => {
    // fr-CA has no value of its own: it shows en-US's, which changed.
    const before = { name: 'One', _locales: { 'fr-CA': {} } };
    const after = { name: 'Two', _locales: { 'fr-CA': {} } };
    expect(localeChanges(schema, before, after).locales).toEqual(['en-US']);
  });

  it('treats an emptied value as no value, and a new translation as a change', () => {
    expect(localeChanges(schema, { _locales: { 'fr-FR': { name: '' } } }, {}).locales).toEqual([]);
    expect(localeChanges(schema, {}, { _locales: { 'fr-FR': { name: 'Un' } } }).locales).toEqual(['fr-FR']);
  });

  it('shows a locale removed from the workspace from the values the versions hold', () => {
    const before = { name: 'One', _locales: { 'de-DE': { name: 'Eins' } } };
    const after = { name: 'One', _locales: { 'de-DE': { name: 'Zwei' } } };
    expect(localeChanges(schema, before, after).locales).toEqual(['de-DE']);
  });

  it('ignores values that are not localised kept under a locale', () => {
    const before = { _locales: { 'fr-FR': { author: 'Ann' } } };
    const after = { _locales: { 'fr-FR': { author: 'Bob' } } };
    expect(localeChanges(schema, before, after)).toEqual({ locales: [], shared: false });
  });

  it('ignores a __proto__ locale safely and leaves prototypes alone', () => {
    const before = JSON.parse('{"_locales": {"__proto__": {"name": "x"}, "fr-FR": {"name": "Un"}}}');
    const after = JSON.parse(
      '{"_locales": {"__proto__": {"name": "y", "polluted": true}, "fr-FR": {"name": "Un", "__proto__": {"name": "z"}}}}',
    );
    expect(localeChanges(schema, before, after)).toEqual({ locales: [], shared: false });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('copes with _locales that are not an object', () => {
    expect(localeChanges(schema, { _locales: 'fr-FR' }, { _locales: ['fr-FR'] })).toEqual({
      locales: [],
      shared: false,
    });
  });

  it('compares a first version with nothing: every locale with a value, and shared fields with one', () => {
    const first = { name: 'One', author: 'Ann', _locales: { 'fr-FR': { name: 'Un' } } };
    expect(localeChanges(schema, {}, first)).toEqual({ locales: ['en-US', 'fr-FR'], shared: true });
  });
});
