import { isDataKey, toDataKey } from '../text/slug';
import { toStoredDate } from './convert';
import type { PropertyType } from './operators';

/**
 * Values a website sends for keys the workspace has not declared: kept, but only in the shapes a
 * declared key could take, and small. The limits are per value; the workspace's count of undeclared
 * names has its own bound (`UNDECLARED_LIMITS` in the API contract).
 */
export const MAX_UNDECLARED_TEXT = 2000;
export const MAX_UNDECLARED_LIST = 50;
/** Most undeclared properties one event, or attributes one identify, may bring. */
export const MAX_UNDECLARED_PER_MESSAGE = 50;

export const UNDECLARED_VALUE_MESSAGES = {
  shape: 'an undeclared value is text, a number, true or false, a date or a list of text values',
  text: `an undeclared text is at most ${MAX_UNDECLARED_TEXT} characters`,
  list: `an undeclared list holds at most ${MAX_UNDECLARED_LIST} texts of at most ${MAX_UNDECLARED_TEXT} characters`,
} as const;

/** A date as sites write one: a day, optionally a time and a zone; nothing else is taken for a date. */
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export type UndeclaredValue =
  { ok: true; type: PropertyType; value: unknown } | { ok: false; message: string };

/**
 * The type of an undeclared value and the value as that type stores it (a date in the stored form,
 * anything else as sent), or why it cannot be kept. Objects, lists of anything but text, and
 * oversized texts or lists are refused.
 */
export function undeclaredValue(raw: unknown): UndeclaredValue {
  if (typeof raw === 'boolean') return { ok: true, type: 'boolean', value: raw };
  if (typeof raw === 'number') {
    return Number.isFinite(raw)
      ? { ok: true, type: 'number', value: raw }
      : { ok: false, message: UNDECLARED_VALUE_MESSAGES.shape };
  }
  if (typeof raw === 'string') {
    if (raw.length > MAX_UNDECLARED_TEXT) return { ok: false, message: UNDECLARED_VALUE_MESSAGES.text };
    const date = DATE_TEXT.test(raw.trim()) ? toStoredDate(raw) : undefined;
    return date ? { ok: true, type: 'date', value: date } : { ok: true, type: 'string', value: raw };
  }
  if (Array.isArray(raw)) {
    if (!raw.every((entry) => typeof entry === 'string'))
      return { ok: false, message: UNDECLARED_VALUE_MESSAGES.shape };
    const fits =
      raw.length <= MAX_UNDECLARED_LIST && raw.every((entry) => entry.length <= MAX_UNDECLARED_TEXT);
    return fits
      ? { ok: true, type: 'array', value: raw }
      : { ok: false, message: UNDECLARED_VALUE_MESSAGES.list };
  }
  return { ok: false, message: UNDECLARED_VALUE_MESSAGES.shape };
}

/** When two types were seen as often, the one that takes more of what sites send. */
const PREFERENCE: readonly PropertyType[] = ['string', 'number', 'boolean', 'date', 'array'];

/**
 * The type to declare a key with, from how often each type of value was seen for it: the only one
 * seen; text when only texts and dates were (a text property takes dates as written); else the most
 * seen. The values of other types sent later are then refused with their reason.
 */
export function inferType(seen: Partial<Record<PropertyType, number>>): PropertyType {
  const types = PREFERENCE.filter((type) => (seen[type] ?? 0) > 0);
  if (types.length === 0) return 'string';
  if (types.length === 1) return types[0];
  if (types.every((type) => type === 'string' || type === 'date')) return 'string';
  return types.reduce((best, type) => ((seen[type] ?? 0) > (seen[best] ?? 0) ? type : best));
}

/**
 * Event keys that differ only in `-` and `_` are one event: `marquee.page()` sends `page-view`, the
 * ingestion's naming (a key derived from the name "Page view"), and most sites send `page_view`.
 */
export const looseEventKey = (key: string) => key.replaceAll('_', '-');

/**
 * The key an undeclared event, property or attribute is kept under, as the ingestion names keys: a
 * data key as sent, other text in kebab-case ("Signed Up" → `signed-up`), or undefined when nothing
 * of it is one. Events take the loose form, so `page_view` and `page-view` are kept as one.
 */
export function undeclaredKeyOf(raw: string, kind: 'event' | 'property' | 'attribute'): string | undefined {
  const key = toDataKey(raw);
  if (!isDataKey(key)) return undefined;
  return kind === 'event' ? looseEventKey(key) : key;
}

/** A readable name for a key declared with one click: `page-view` → "Page view", `firstName` → "First name". */
export function nameOfKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}
