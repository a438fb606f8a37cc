import { LOCALES_KEY } from '@shared/locales/locales';
import { mapNestedEntries, type BlockTypes } from '@shared/schemas/blocks';
import { timezoneKey, type FieldDef, type SchemaType } from '@shared/schemas/types';
import { composeCode } from '@shared/validation/code-blocks';
import { isEmptyValue } from '@shared/validation/empty';
import { generatableValue, isGeneratedField } from '@shared/validation/generatable';
import { nameSlugValue } from '@shared/validation/name-slug';
import type { ContentModel } from '@shared/model/registry';
import type { RenamedField } from '@shared/model/types';
import type { ItemData } from '../fields/types';

export interface PreparedItemData {
  data: ItemData;
  /** Paths of code fields that were empty and now hold their default code ('Loaded default code'). */
  loadedDefaults: Set<string>;
}

/** `value` with its generated and default values filled, in its table rows and blocks too. */
function prepareFields(
  fields: readonly FieldDef[],
  value: Readonly<ItemData>,
  blockTypes: BlockTypes | undefined,
  prefix: string,
  loadedDefaults: Set<string>,
): ItemData {
  const data: ItemData = { ...value };
  for (const field of fields) {
    if (field.type === 'generatable' && isGeneratedField(field) && isEmptyValue(data[field.key])) {
      data[field.key] = generatableValue(field, data[field.key]);
    }
    if (field.type === 'code' && isEmptyValue(data[field.key])) {
      data[field.key] = composeCode(field, field.defaultCode);
      loadedDefaults.add(prefix + field.key);
    }
    const current = data[field.key];
    const rows = mapNestedEntries(field, current, blockTypes, (entry) =>
      prepareFields(
        entry.fields,
        entry.data,
        blockTypes,
        `${prefix}${field.key}.${entry.index}.`,
        loadedDefaults,
      ),
    );
    if (rows !== current) data[field.key] = rows;
  }
  return data;
}

/**
 * The data a form opens with (spec §5): generated fields (generate length above 10) are filled with a
 * random alphanumeric string and empty code fields with their default code, in table rows and blocks
 * too. These count as the starting point, not as the user's changes.
 */
export function prepareItemData(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  value: Readonly<ItemData>,
): PreparedItemData {
  const loadedDefaults = new Set<string>();
  const data = prepareFields(schema.fields, value, schema.blockTypes, '', loadedDefaults);
  return { data, loadedDefaults };
}

/**
 * Applies a patch of top-level keys. A name-slug field that still follows its source (empty, or equal
 * to the slug of the source's old value) follows the source's new value too (spec §5: derived from the
 * name unless typed), unless it is one of `fixedSlugs`: the stored slug stays once the item was
 * published or the slug typed by hand (`fixedNameSlugs`, which the server applies too).
 */
export function patchItemData(
  schema: Pick<SchemaType, 'fields'>,
  previous: Readonly<ItemData>,
  patch: Readonly<ItemData>,
  fixedSlugs: ReadonlySet<string> = new Set(),
): ItemData {
  const next: ItemData = { ...previous, ...patch };
  for (const field of schema.fields) {
    if (field.type !== 'name-slug' || !(field.from in patch) || field.key in patch) continue;
    if (fixedSlugs.has(field.key)) continue;
    const current = previous[field.key];
    const following = isEmptyValue(current) || current === nameSlugValue('', previous[field.from]);
    if (following) next[field.key] = nameSlugValue('', next[field.from]) || null;
  }
  return next;
}

const withoutKeys = (data: Readonly<ItemData>, keys: readonly string[]): ItemData =>
  Object.fromEntries(Object.entries(data).filter(([key]) => !keys.includes(key)));

/**
 * The data without the values of fields `before` has and `after` has not (the content model changed
 * under an open form): with their `{key}_tz` companions and their other locales' values. Answers `data`
 * itself when no field went.
 */
export function withoutRemovedFields(
  before: Pick<SchemaType, 'fields'>,
  after: Pick<SchemaType, 'fields'>,
  data: ItemData,
): ItemData {
  const kept = new Set(after.fields.map((field) => field.key));
  const removed = before.fields.map((field) => field.key).filter((key) => !kept.has(key));
  if (removed.length === 0) return data;
  const next = withoutKeys(data, [...removed, ...removed.map(timezoneKey)]);
  const locales = data[LOCALES_KEY];
  if (typeof locales === 'object' && locales !== null)
    next[LOCALES_KEY] = Object.fromEntries(
      Object.entries(locales as Record<string, unknown>).map(([tag, values]) => [
        tag,
        typeof values === 'object' && values !== null ? withoutKeys(values as ItemData, removed) : values,
      ]),
    );
  return next;
}

/** The fields of `schema` renamed in the model between `before` and `after` (renames `after` names and `before` does not). */
export function renamedBetween(
  before: Pick<ContentModel, 'renamed'> | undefined,
  after: Pick<ContentModel, 'renamed'> | undefined,
  schema: string,
): RenamedField[] {
  const known = new Set((before?.renamed ?? []).map((r) => JSON.stringify([r.schema, r.from, r.to])));
  return (after?.renamed ?? []).filter(
    (r) => r.schema === schema && !known.has(JSON.stringify([r.schema, r.from, r.to])),
  );
}

/** The data with the values of renamed fields under their new keys (in every locale too). */
export function withRenamedFields(renames: readonly RenamedField[], data: ItemData): ItemData {
  if (renames.length === 0) return data;
  const move = (values: ItemData) => {
    const next = { ...values };
    for (const { from, to } of renames)
      for (const [old, key] of [
        [from, to],
        [timezoneKey(from), timezoneKey(to)],
      ]) {
        if (!(old in next) || key in next) continue;
        next[key] = next[old];
        delete next[old];
      }
    return next;
  };
  const next = move(data);
  const locales = data[LOCALES_KEY];
  if (typeof locales === 'object' && locales !== null)
    next[LOCALES_KEY] = Object.fromEntries(
      Object.entries(locales as Record<string, unknown>).map(([tag, values]) => [
        tag,
        typeof values === 'object' && values !== null ? move(values as ItemData) : values,
      ]),
    );
  return next;
}
