/**
 * A schema's preview URLs: templates such as `https://www.example.com/blog/{slug}?locale={locale}`,
 * whose placeholders name a top-level field of the schema, `{locale}` or `{id}`.
 */
import type { SchemaType } from '../schemas/types';

const MAX_PREVIEW_URLS = 5;
const MAX_PREVIEW_URL_LENGTH = 2000;
/** Placeholders every schema's templates may use besides its fields. */
const BUILT_IN_PLACEHOLDERS: ReadonlySet<string> = new Set(['locale', 'id']);

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The names of a template's placeholders, in order. */
export const placeholdersOf = (template: string) => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);

/** The template with its placeholders as a URL may hold them, to check that it is one. */
const withSampleValues = (template: string) => template.replace(PLACEHOLDER, 'x');

function isAbsoluteHttpUrl(template: string) {
  try {
    const url = new URL(withSampleValues(template));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Why a schema's previewUrls are not sound (each message names the schema), none when they are. */
export function* previewUrlProblems(schema: Pick<SchemaType, 'name' | 'fields' | 'previewUrls'>) {
  const owner = `Schema "${schema.name}"`;
  const urls: unknown = schema.previewUrls;
  if (urls === undefined) return;
  if (!Array.isArray(urls)) {
    yield `${owner}: preview URLs must be a list`;
    return;
  }
  if (urls.length > MAX_PREVIEW_URLS) yield `${owner} has more than ${MAX_PREVIEW_URLS} preview URLs`;
  const keys = new Set(schema.fields.map((field) => field.key));
  for (const url of urls as unknown[]) {
    if (typeof url !== 'string' || url.length > MAX_PREVIEW_URL_LENGTH) {
      yield `${owner}: a preview URL must be text of at most ${MAX_PREVIEW_URL_LENGTH} characters`;
      continue;
    }
    if (!isAbsoluteHttpUrl(url)) {
      yield `${owner}: preview URL "${url}" is not an absolute http or https URL`;
      continue;
    }
    for (const name of placeholdersOf(url))
      if (!keys.has(name) && !BUILT_IN_PLACEHOLDERS.has(name))
        yield `${owner}: preview URL placeholder "{${name}}" names no field of the schema (nor locale or id)`;
  }
}

/** A template renamed with its field: `{from}` becomes `{to}`. */
export const renamePlaceholder = (template: string, from: string, to: string) =>
  template.replace(PLACEHOLDER, (whole, name: string) => (name === from ? `{${to}}` : whole));

/**
 * The template filled for an item: each placeholder by the item's id, the locale or the field's value
 * (text and numbers; '' for anything else), URL-encoded.
 */
export function fillPreviewUrl(
  template: string,
  item: { id: string; data: Record<string, unknown> },
  locale = '',
): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = name === 'id' ? item.id : name === 'locale' ? locale : item.data[name];
    return typeof value === 'string' || typeof value === 'number' ? encodeURIComponent(String(value)) : '';
  });
}
