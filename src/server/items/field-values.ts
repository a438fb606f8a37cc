import { localeValues, LOCALES_KEY } from '@shared/locales/locales';
import { nestedEntries } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';

type Data = Readonly<Record<string, unknown>>;

function visitFields(
  fields: readonly FieldDef[],
  data: Data,
  schema: Pick<SchemaType, 'blockTypes'>,
  visit: (field: FieldDef, value: unknown) => void,
) {
  for (const field of fields) {
    const value = data[field.key];
    if (value === null || value === undefined) continue;
    visit(field, value);
    for (const entry of nestedEntries(field, value, schema.blockTypes))
      visitFields(entry.fields, entry.data, schema, visit);
  }
}

/**
 * Every set value of an item with the field it belongs to: the schema's fields, those of table rows and
 * blocks (the innermost field), and the same again in each locale's values.
 */
export function forEachFieldValue(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Data,
  visit: (field: FieldDef, value: unknown) => void,
) {
  visitFields(schema.fields, data, schema, visit);
  const locales = data[LOCALES_KEY];
  if (typeof locales !== 'object' || locales === null) return;
  for (const tag of Object.keys(locales)) visitFields(schema.fields, localeValues(data, tag), schema, visit);
}
