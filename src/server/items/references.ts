import { localeValues, LOCALES_KEY } from '@shared/locales/locales';
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
    if (field.type === 'table' && Array.isArray(value)) {
      for (const row of value) {
        if (typeof row === 'object' && row !== null)
          collect(field.columns, row as Record<string, unknown>, out);
      }
    }
  }
}

/**
 * Spec §3 `_references`: every referenced item id → schemaType, label, fieldKey and thumbId, from the
 * reference fields and from the inline images and item links of rich-text fields.
 */
export function buildReferences(schema: Pick<SchemaType, 'fields'>, data: Readonly<Record<string, unknown>>) {
  const out = new Map<string, ItemReference>();
  collect(schema.fields, data, out);
  for (const tag of Object.keys(localesOf(data))) collect(schema.fields, localeValues(data, tag), out);
  // fromEntries defines own properties, so an id such as "__proto__" stays an ordinary key.
  return Object.fromEntries(out) as Record<string, ItemReference>;
}
