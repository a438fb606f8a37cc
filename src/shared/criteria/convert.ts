import type { AttributeType } from './operators';

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

/** An imported date (ISO date or date-time) in the stored form, or undefined. */
export function toStoredDate(raw: unknown): string | undefined {
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
