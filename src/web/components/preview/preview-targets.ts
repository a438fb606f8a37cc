import { fallbackChain, localeValues, type LocaleSettings } from '@shared/locales/locales';
import { fillPreviewUrl } from '@shared/preview/preview-urls';

/** One place the pane can show the item: its template, and the page's URL and origin for the item. */
export interface PreviewTarget {
  template: string;
  url: string;
  origin: string;
}

type Data = Readonly<Record<string, unknown>>;

/**
 * The item's values as a locale reads them: its own values over its fallbacks' over the default's, so a
 * template's `{slug}` is the slug the page has in that locale.
 */
export function valuesInLocale(data: Data, locale: string | undefined, settings?: LocaleSettings): Data {
  if (!locale || !settings || locale === settings.default) return data;
  const chain = fallbackChain(settings, locale).filter((tag) => tag !== settings.default);
  return chain.reduceRight<Data>((values, tag) => ({ ...values, ...localeValues(data, tag) }), data);
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * The schema's preview URLs filled for the item and locale, those whose origin the workspace lists
 * (no page of another origin is shown or sent anything), with the token in their query.
 */
export function previewTargets(
  templates: readonly string[],
  origins: readonly string[],
  item: { id: string; data: Data },
  { locale, locales, token }: { locale?: string; locales?: LocaleSettings; token?: string },
): PreviewTarget[] {
  const data = { ...valuesInLocale(item.data, locale, locales) };
  return templates.flatMap((template) => {
    const filled = fillPreviewUrl(template, { id: item.id, data }, locale ?? '');
    const origin = originOf(filled);
    if (!origin || !origins.includes(origin)) return [];
    const url = new URL(filled);
    if (token) url.searchParams.set('previewToken', token);
    return [{ template, url: url.href, origin }];
  });
}
