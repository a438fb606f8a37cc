import type { LocaleSettings } from '@shared/locales/locales';
import { previewTargets, valuesInLocale } from './preview-targets';

const LOCALES: LocaleSettings = {
  tags: ['en-US', 'fr-FR', 'fr-CA'],
  default: 'en-US',
  fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'en-US' },
};
const ITEM = {
  id: 'p1',
  data: { title: 'Spring', slug: 'spring', _locales: { 'fr-FR': { slug: 'printemps' }, 'fr-CA': {} } },
};

describe('previewTargets', () => {
  it('fills each template for the item and adds the token', () => {
    expect(
      previewTargets(
        ['https://www.example.com/p/{slug}?locale={locale}', 'https://www.example.com/by-id/{id}'],
        ['https://www.example.com'],
        ITEM,
        { locale: 'en-US', locales: LOCALES, token: 'mqp_x' },
      ),
    ).toEqual([
      {
        template: 'https://www.example.com/p/{slug}?locale={locale}',
        url: 'https://www.example.com/p/spring?locale=en-US&previewToken=mqp_x',
        origin: 'https://www.example.com',
      },
      {
        template: 'https://www.example.com/by-id/{id}',
        url: 'https://www.example.com/by-id/p1?previewToken=mqp_x',
        origin: 'https://www.example.com',
      },
    ]);
  });

  it('offers no page of an origin the workspace does not list', () => {
    expect(
      previewTargets(
        ['https://other.example.com/{slug}', 'http://127.0.0.1:4000/{slug}'],
        ['http://127.0.0.1:4000'],
        ITEM,
        {},
      ),
    ).toEqual([
      {
        template: 'http://127.0.0.1:4000/{slug}',
        url: 'http://127.0.0.1:4000/spring',
        origin: 'http://127.0.0.1:4000',
      },
    ]);
    expect(previewTargets(['https://www.example.com/{slug}'], [], ITEM, {})).toEqual([]);
  });

  it("reads a locale's values through its fallbacks", () => {
    expect(valuesInLocale(ITEM.data, 'fr-CA', LOCALES).slug).toBe('printemps');
    expect(valuesInLocale(ITEM.data, 'en-US', LOCALES).slug).toBe('spring');
    expect(
      previewTargets(['https://www.example.com/{slug}?locale={locale}'], ['https://www.example.com'], ITEM, {
        locale: 'fr-CA',
        locales: LOCALES,
      })[0].url,
    ).toBe('https://www.example.com/printemps?locale=fr-CA');
  });
});
