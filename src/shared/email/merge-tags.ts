/**
 * Merge tags of email templates: `{{attribute-key}}` or `{{attribute-key|default}}`, filled
 * from one customer profile's attributes (a plain object keyed by attribute key) or their defaults.
 */

import { decodeEntities, hasSafeScheme, urlKindOf, type UrlKind } from './safe-url';

/** `{{ key }}` or `{{ key | default text }}`; keys are attribute keys (kebab-case, letters, digits, _ . -). */
const MERGE_TAG = /\{\{\s*([A-Za-z0-9_.-]+)\s*(?:\|([^{}]*?))?\s*\}\}/g;

export interface MergeTag {
  key: string;
  defaultValue?: string;
}

/** The merge tags a text uses, each key once, in order of first use. */
export function mergeTagsIn(text: string): MergeTag[] {
  const seen = new Map<string, MergeTag>();
  for (const [, key, fallback] of text.matchAll(MERGE_TAG)) {
    if (!seen.has(key))
      seen.set(key, fallback === undefined ? { key } : { key, defaultValue: fallback.trim() });
  }
  return [...seen.values()];
}

export type MergeAttributes = Readonly<Record<string, unknown>>;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** An attribute value as text: lists joined with commas, nothing for null or objects. */
function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((v) => asText(v) ?? '').join(', ');
  if (typeof value === 'object') return undefined;
  return String(value);
}

/** The text with every merge tag replaced, each value passed through `escape`. */
function fill(text: string, attributes: MergeAttributes, escape: (value: string) => string): string {
  return text.replace(MERGE_TAG, (_tag, key: string, fallback: string | undefined) => {
    const value = Object.hasOwn(attributes, key) ? asText(attributes[key]) : undefined;
    if (value !== undefined && value !== '') return escape(value);
    return fallback?.trim() ?? '';
  });
}

/**
 * A URL with its merge tags filled (values as they are), when the result is a URL of a scheme `kind`
 * allows (http, https, mailto, tel; an image http or https); undefined otherwise. The template's own
 * URLs were checked when it was saved, but a merge tag there passed as what it would become.
 */
export function fillMergeUrl(url: string, attributes: MergeAttributes, kind: UrlKind): string | undefined {
  const filled = fill(url, attributes, (value) => value);
  return hasSafeScheme(filled, kind) ? filled : undefined;
}

/** A start tag (quoted values may hold `>`), or a merge tag in text. */
const TAG_OR_MERGE_TAG = new RegExp(
  `<[A-Za-z][^\\s/>]*(?:"[^"]*"|'[^']*'|[^'">])*>|${MERGE_TAG.source}`,
  'g',
);
const HAS_MERGE_TAG = new RegExp(MERGE_TAG.source);
/** An attribute with a value, quoted or not. */
const ATTRIBUTE = /(\s)([^\s"'<>/=]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;

/** What is written into a double-quoted attribute; braces too, so a value cannot spell a merge tag. */
const escapeAttribute = (text: string) => escapeHtml(text).replace(/[{}]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A start tag with its merge tags filled: a URL attribute's whole value is filled and checked as the
 * browser will read it, and dropped when it is no allowed URL; other values are filled escaped. A merge
 * tag anywhere else in the tag (where an attribute's name goes) is dropped: a value there would be markup.
 */
function fillTag(tag: string, attributes: MergeAttributes): string {
  if (!tag.includes('{{')) return tag;
  const filled = tag.replace(
    ATTRIBUTE,
    (whole, space: string, name: string, ...values: (string | undefined)[]) => {
      const value = values.slice(0, 3).find((v) => v !== undefined) ?? '';
      if (!HAS_MERGE_TAG.test(value)) return whole;
      const kind = urlKindOf(name);
      if (!kind) return `${space}${name}="${fill(value, attributes, escapeAttribute)}"`;
      const url = fillMergeUrl(decodeEntities(value), attributes, kind);
      return url === undefined ? '' : `${space}${name}="${escapeAttribute(url)}"`;
    },
  );
  // What is left outside the attributes' values.
  return filled.replace(
    /(\s[^\s"'<>/=]+\s*=\s*(?:"[^"]*"|'[^']*'))|\{\{[^{}]*\}\}/g,
    (_whole, kept: string | undefined) => kept ?? '',
  );
}

/**
 * The text with every merge tag replaced by the attribute's value, else the tag's default, else
 * nothing. With `html`, values are escaped for HTML (defaults were written in the template's HTML
 * already and stay as they are), and a value in a URL attribute (href, src and the like) must make an
 * allowed URL (`fillMergeUrl`), else the attribute is dropped: this is the one place merging happens,
 * for campaign sends, test sends and previews alike.
 */
export function fillMergeTags(
  text: string,
  attributes: MergeAttributes,
  options: { html?: boolean } = {},
): string {
  if (!options.html) return fill(text, attributes, (value) => value);
  return text.replace(TAG_OR_MERGE_TAG, (match) =>
    match.startsWith('<') ? fillTag(match, attributes) : fill(match, attributes, escapeHtml),
  );
}

/**
 * How a merge tag is written into a template: `{{key}}`, or `{{key|default}}` with the text a profile
 * without a value gets (its braces dropped and its spaces collapsed: a default cannot end the tag).
 */
export function mergeTagText(key: string, defaultValue?: string) {
  const fallback = (defaultValue ?? '').replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
  return fallback ? `{{${key}|${fallback}}}` : `{{${key}}}`;
}
