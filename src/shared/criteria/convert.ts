import type { AttributeType } from './operators';
import { ISO_DATE_PATTERN } from './time';

export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  yes: true,
  '1': true,
  false: false,
  no: false,
  '0': false,
};
const DATE_START = /^\d{4}-\d{2}-\d{2}/;

const refuse = (raw: unknown, what: string): Converted => ({
  ok: false,
  message: `${JSON.stringify(raw)} is not ${what}`,
});

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number the `count` ASCII digits of `text` from `at` spell. */
function digits(text: string, at: number, count: number) {
  let value = 0;
  for (let i = at; i < at + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

/**
 * Whether a text of the stored form names the instant it spells: a real day of its month, hours to 23,
 * minutes and seconds to 59. Such a text is its own stored form; parsing and printing it again (a third
 * of an imported event's conversion) would give the same text.
 */
function isOwnStoredForm(text: string): boolean {
  if (!ISO_DATE_PATTERN.test(text)) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= monthDays &&
    digits(text, 11, 2) <= 23 &&
    digits(text, 14, 2) <= 59 &&
    digits(text, 17, 2) <= 59
  );
}

/** An imported date (ISO date or date-time) in the stored form, or undefined. */
export function toStoredDate(raw: unknown): string | undefined {
  if (typeof raw === 'string' && isOwnStoredForm(raw)) return raw;
  if (typeof raw !== 'string' || !DATE_START.test(raw.trim())) return undefined;
  const time = Date.parse(raw.trim());
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * An imported value (a CSV cell or an NDJSON value) converted by its declared type: numbers, yes/no
 * words, `a|b|c` or a JSON list for arrays, ISO dates stored as `Date#toISOString`.
 */
export function convertValue(type: AttributeType, raw: unknown): Converted {
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  switch (type) {
    case 'number': {
      const value = typeof raw === 'number' ? raw : text ? Number(text) : NaN;
      return Number.isFinite(value) ? { ok: true, value } : refuse(raw, 'a number');
    }
    case 'string':
    case 'categorical':
      return typeof raw === 'string' ? { ok: true, value: raw } : refuse(raw, 'text');
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const value = text === undefined ? undefined : BOOLEAN_WORDS[text.toLowerCase()];
      return value === undefined ? refuse(raw, 'yes or no') : { ok: true, value };
    }
    case 'array': {
      let list: unknown = raw;
      if (text !== undefined) {
        try {
          list = text.startsWith('[')
            ? JSON.parse(text)
            : text
                .split('|')
                .map((part) => part.trim())
                .filter(Boolean);
        } catch {
          return refuse(raw, 'a list');
        }
      }
      return Array.isArray(list) && list.every((element) => typeof element === 'string')
        ? { ok: true, value: list }
        : refuse(raw, 'a list of text values');
    }
    case 'date': {
      const value = toStoredDate(raw);
      return value ? { ok: true, value } : refuse(raw, 'a date');
    }
  }
}

/** Whether an imported value stands for "no value given" (an empty CSV cell, an NDJSON null). */
export const isBlank = (raw: unknown) =>
  raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
