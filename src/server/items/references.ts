import { localeValues, LOCALES_KEY } from '@shared/locales/locales';
import { nestedEntries, type BlockTypes } from '@shared/schemas/blocks';
import type { FieldDef, Reference, SchemaType } from '@shared/schemas/types';
import type { ItemReference } from '../db/schema';
import { referencesInRichText } from '../sanitize/rich-text';

const localesOf = (data: Readonly<Record<string, unknown>>): object => {
  const locales = data[LOCALES_KEY];
  return typeof locales === 'object' && locales !== null ? locales : {};
};

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).id === 'string';
}

function collect(
  fields: readonly FieldDef[],
  data: Readonly<Record<string, unknown>>,
  out: Map<string, ItemReference>,
  blockTypes: BlockTypes | undefined,
) {
  for (const field of fields) {
    const value = data[field.key];
    if (value === null || value === undefined) continue;
    const refs =
      field.type === 'reference'
        ? [value]
        : field.type === 'reference-list' && Array.isArray(value)
          ? value
          : [];
    for (const ref of refs) {
      if (!isReference(ref) || out.has(ref.id)) continue;
      out.set(ref.id, {
        schemaType: ref.schemaType,
        label: ref.label ?? '',
        fieldKey: field.key,
        ...(ref.thumbId ? { thumbId: ref.thumbId } : {}),
      });
    }
    if (field.type === 'rich-text' && typeof value === 'string') {
      // Inline images and item links carry their reference in data-ref-* attributes (kept by the sanitiser).
      for (const ref of referencesInRichText(value)) {
        if (out.has(ref.id)) continue;
        out.set(ref.id, {
          schemaType: ref.schemaType,
          label: ref.label,
          fieldKey: field.key,
          ...(ref.storageName ? { thumbId: ref.storageName } : {}),
        });
      }
    }
    for (const entry of nestedEntries(field, value, blockTypes))
      collect(entry.fields, entry.data, out, blockTypes);
  }
}

/**
 * Spec §3 `_references`: every referenced item id → schemaType, label, fieldKey and thumbId, from the
 * reference fields and from the inline images and item links of rich-text fields, in table rows and
 * blocks too (fieldKey names the innermost field).
 */
export function buildReferences(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Readonly<Record<string, unknown>>,
) {
  const { fields, blockTypes } = schema;
  const out = new Map<string, ItemReference>();
  collect(fields, data, out, blockTypes);
  for (const tag of Object.keys(localesOf(data))) collect(fields, localeValues(data, tag), out, blockTypes);
  // fromEntries defines own properties, so an id such as "__proto__" stays an ordinary key.
  return Object.fromEntries(out) as Record<string, ItemReference>;
}
