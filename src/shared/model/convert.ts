/** One stored value as it becomes when its field is retyped. */
import type { FieldDef } from '../schemas/types';
import { isEmptyValue } from '../validation/empty';
import { nameSlugValue } from '../validation/name-slug';
import { htmlToText, textToHtml } from './html-text';

export type Conversion = { ok: true; value: unknown } | { ok: false; error: string };

type Convert = (value: unknown, from: FieldDef, to: FieldDef) => Conversion;

const ok = (value: unknown): Conversion => ({ ok: true, value });
const fail = (error: string): Conversion => ({ ok: false, error });

/** A value as messages quote it: text in quotes, lists and objects as JSON, cut to 60 characters. */
function quoted(value: unknown): string {
  const text =
    typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const TEXTUAL = new Set(['text', 'multiline', 'name-slug']);

/** Text kinds among themselves; a name-slug takes the slug of the text. */
const textToText: Convert = (value, _from, to) => {
  if (typeof value !== 'string') return fail(`${quoted(value)} is not text`);
  if (to.type !== 'name-slug') return ok(value);
  const slug = nameSlugValue(value, undefined, to.keepsDataKeys);
  return slug ? ok(slug) : fail(`${quoted(value)} has no letters or digits to make a slug of`);
};

const textToNumber: Convert = (value) => {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const number = text !== undefined && NUMBER.test(text) ? Number(text) : NaN;
  return Number.isFinite(number) ? ok(number) : fail(`${quoted(value)} is not a number`);
};

const numberToRange: Convert = (value, _from, to) => {
  const { min, max } = to as Extract<FieldDef, { type: 'range' }>;
  const fits = typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
  return fits ? ok(value) : fail(`${quoted(value)} is not a whole number from ${min} to ${max}`);
};

const textToBoolean: Convert = (value) => {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return text === 'true' || text === 'false'
    ? ok(text === 'true')
    : fail(`${quoted(value)} is not true or false`);
};

/** A number or a yes/no as text: '12', 'true'. */
const asText: Convert = (value, from, to) =>
  typeof value === 'number' || typeof value === 'boolean'
    ? textToText(String(value), from, to)
    : fail(`${quoted(value)} is not ${from.type === 'boolean' ? 'true or false' : 'a number'}`);

const toList: Convert = (value) => ok([value]);

/** A list into a field holding one value: an empty list is nothing, one entry is that entry. */
const toOne: Convert = (value) => {
  if (!Array.isArray(value)) return fail(`${quoted(value)} is not a list`);
  return value.length <= 1
    ? ok(value[0])
    : fail(`${quoted(value)} holds ${value.length} values; the field holds one`);
};

const dateToDateTime: Convert = (value) =>
  typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value))
    ? ok(`${value}T00:00:00.000Z`)
    : fail(`${quoted(value)} is not a date`);

const dateTimeToDate: Convert = (value) => {
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(at)
    ? fail(`${quoted(value)} is not a date and time`)
    : ok(new Date(at).toISOString().slice(0, 10));
};

const same: Convert = (value) => ok(value);

const kindOf = (field: FieldDef) =>
  field.type === 'select'
    ? field.multiple
      ? 'select-multiple'
      : 'select'
    : TEXTUAL.has(field.type)
      ? 'textual'
      : field.type;

/** The conversion from one kind of field to another; kinds are types, selects split by multiplicity. */
const CONVERSIONS: Record<string, Convert> = {
  'textual>textual': textToText,
  'textual>number': textToNumber,
  'number>textual': asText,
  'textual>rich-text': (value, from, to) =>
    typeof value === 'string' ? ok(textToHtml(value)) : textToText(value, from, to),
  'rich-text>textual': (value, from, to) =>
    typeof value === 'string'
      ? textToText(htmlToText(value), from, to)
      : fail(`${quoted(value)} is not text`),
  'textual>boolean': textToBoolean,
  'boolean>textual': asText,
  'select>tags': toList,
  'tags>select': toOne,
  'select>select-multiple': toList,
  'select-multiple>select': toOne,
  'select-multiple>tags': same,
  'tags>select-multiple': same,
  'date>datetime': dateToDateTime,
  'datetime>date': dateTimeToDate,
  'reference>reference-list': toList,
  'reference-list>reference': toOne,
  'number>range': numberToRange,
  'range>number': same,
};

/**
 * A value of a field `from` as the retyped field `to` stores it, or why it cannot be. Empty values
 * (null, undefined, '', []) become nothing; a kind of field into the same kind keeps its value.
 */
export function convertValue(value: unknown, from: FieldDef, to: FieldDef): Conversion {
  if (isEmptyValue(value)) return ok(undefined);
  const kinds = `${kindOf(from)}>${kindOf(to)}`;
  const convert = kindOf(from) === kindOf(to) && from.type === to.type ? same : CONVERSIONS[kinds];
  if (!convert) return fail(`${quoted(value)} cannot become a ${to.type} value (it is a ${from.type} value)`);
  return convert(value, from, to);
}
