/**
 * Merge tags of email templates: `{{attribute-key}}` or `{{attribute-key|default}}`, filled
 * from one customer profile's attributes (a plain object keyed by attribute key) or their defaults.
 */

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

/**
 * The text with every merge tag replaced by the attribute's value, else the tag's default, else
 * nothing. With `html`, values are escaped for HTML (defaults were written in the template's HTML
 * already and stay as they are).
 */
export function fillMergeTags(
  text: string,
  attributes: MergeAttributes,
  options: { html?: boolean } = {},
): string {
  return text.replace(MERGE_TAG, (_tag, key: string, fallback: string | undefined) => {
    const value = Object.hasOwn(attributes, key) ? asText(attributes[key]) : undefined;
    if (value !== undefined && value !== '') return options.html ? escapeHtml(value) : value;
    return fallback?.trim() ?? '';
  });
}

/** How a merge tag is written into a template. */
export const mergeTagText = (key: string, defaultValue?: string) =>
  defaultValue ? `{{${key}|${defaultValue}}}` : `{{${key}}}`;
