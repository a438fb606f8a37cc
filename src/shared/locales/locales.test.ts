import { landingPage, sectionsField } from '../schemas/blocks-test-data';
import type { SchemaType } from '../schemas/types';
import { localeSettingsError, localizedSchema, type LocaleSettings } from './locales';

describe('localised blocks fields', () => {
  const settings: LocaleSettings = { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: {} };
  const schemaOf = (name: string) => (name === landingPage.name ? landingPage : undefined);

  it('may be localised by the workspace, one whole list of blocks per locale', () => {
    const chosen = { ...settings, fields: { 'landing-page': { sections: { requiredIn: ['fr-FR'] } } } };
    expect(localeSettingsError(chosen, schemaOf)).toBeUndefined();
    const localized = localizedSchema(landingPage, chosen);
    expect(localized.fields[1]).toEqual({ ...sectionsField, localized: true, requiredInLocales: ['fr-FR'] });
    expect(localized.locales).toEqual({ default: 'en-US', others: ['fr-FR'] });
    expect(localized.blockTypes).toBe(landingPage.blockTypes);
  });

  it('keep the localised flag a schema gives them', () => {
    const declared: SchemaType = { ...landingPage, fields: [{ ...sectionsField, localized: true }] };
    const localized = localizedSchema(declared, settings);
    expect(localized.fields[0].localized).toBe(true);
    expect(localized.locales).toEqual({ default: 'en-US', others: ['fr-FR'] });
  });
});
