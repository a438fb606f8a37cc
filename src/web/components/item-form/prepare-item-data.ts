import { mapNestedEntries, type BlockTypes } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { composeCode } from '@shared/validation/code-blocks';
import { isEmptyValue } from '@shared/validation/empty';
import { generatableValue, isGeneratedField } from '@shared/validation/generatable';
import { nameSlugValue } from '@shared/validation/name-slug';
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
