import { blockTitle, type BlockTypes } from './blocks';
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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Compare mode for a blocks field: what changed block by block, matching blocks by `_key` ('Hero 1
 * changed', 'Call to action 3 added', 'Feature grid 2 removed', 'Blocks reordered'). A block is named by
 * its type's title and its position in its version; none when the lists are the same.
 */
export function blockChanges(before: unknown, after: unknown, blockTypes?: BlockTypes): string[] {
  const listOf = (value: unknown) => (Array.isArray(value) ? value.filter(isRecord) : []);
  const keyOf = (block: Record<string, unknown>) => (typeof block._key === 'string' ? block._key : undefined);
  const nameOf = (block: Record<string, unknown>, index: number) =>
    `${blockTitle(blockTypes, block)} ${index + 1}`;
  const old = listOf(before);
  const current = listOf(after);
  const oldByKey = new Map(old.flatMap((block) => (keyOf(block) ? [[keyOf(block), block] as const] : [])));
  const currentKeys = new Set<unknown>(current.map(keyOf).filter((key) => key !== undefined));
  const changes: string[] = [];
  current.forEach((block, index) => {
    const was = oldByKey.get(keyOf(block));
    if (!was) changes.push(`${nameOf(block, index)} added`);
    else if (!sameValue(was, block)) changes.push(`${nameOf(block, index)} changed`);
  });
  old.forEach((block, index) => {
    if (!currentKeys.has(keyOf(block))) changes.push(`${nameOf(block, index)} removed`);
  });
  const kept = (list: Record<string, unknown>[], keys: Set<unknown>) =>
    list.map(keyOf).filter((key) => keys.has(key));
  const keptOld = kept(old, currentKeys);
  const keptCurrent = kept(current, new Set(oldByKey.keys()));
  if (keptOld.some((key, index) => key !== keptCurrent[index])) changes.push('Blocks reordered');
  return changes;
}
