/** Kebab-case of free text: 'Blog Posts!' → 'blog-posts'. Accents are folded, anything else becomes a dash. */
export function toKebabCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Longest data key (an attribute, event or property key). */
const MAX_DATA_KEY_LENGTH = 100;
const DATA_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Whether a text is a data key as files and APIs spell it: a letter, then letters, digits, `_` or
 * `-` (`firstName`, `page_view`, `plan-tier`), at most 100 characters.
 */
export const isDataKey = (text: string) => text.length <= MAX_DATA_KEY_LENGTH && DATA_KEY.test(text);

/** The data key a typed text stands for: the text itself when it is one, else its kebab-case. */
export function toDataKey(text: string): string {
  const trimmed = text.trim();
  if (isDataKey(trimmed)) return trimmed;
  return toKebabCase(text).slice(0, MAX_DATA_KEY_LENGTH).replace(/-+$/, '');
}
