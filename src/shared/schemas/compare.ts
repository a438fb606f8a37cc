import type { SchemaType } from './types';
import { timezoneKey } from './types';

/** Structural equality of JSON-like values; key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return (a ?? null) === (b ?? null) || (Number.isNaN(a) && Number.isNaN(b));
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a as object).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b as object).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * Compare mode: the keys of the schema's fields whose values differ between two versions of an item.
 * A date-time field also counts as changed when only its `{key}_tz` zone changed; null and a missing
 * value are the same.
 */
export function changedFields(
  schema: Pick<SchemaType, 'fields'>,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): string[] {
  return schema.fields
    .filter((field) => {
      const keys = field.type === 'datetime' ? [field.key, timezoneKey(field.key)] : [field.key];
      return keys.some((key) => !sameValue(before[key], after[key]));
    })
    .map((field) => field.key);
}
