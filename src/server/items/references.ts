import type { Reference, SchemaType } from '@shared/schemas/types';
import type { ItemReference } from '../db/schema';
import type { ItemFieldReaders } from './field-readers';
import { forEachFieldValue } from './field-values';

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).id === 'string';
}

const referencesOf = (type: string, value: unknown): unknown[] =>
  type === 'reference' ? [value] : type === 'reference-list' && Array.isArray(value) ? value : [];

/**
 * Spec §3 `_references`: every referenced item id → schemaType, label, fieldKey and thumbId, from the
 * reference fields and from what other field types' readers find inside their values (rich text's
 * inline images and item links), in table rows, blocks and locales too (fieldKey names the innermost
 * field). The first field naming an id wins.
 */
export function buildReferences(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Readonly<Record<string, unknown>>,
  readers: ItemFieldReaders,
) {
  const out = new Map<string, ItemReference>();
  forEachFieldValue(schema, data, (field, value) => {
    for (const ref of referencesOf(field.type, value)) {
      if (!isReference(ref) || out.has(ref.id)) continue;
      out.set(ref.id, {
        schemaType: ref.schemaType,
        label: ref.label ?? '',
        fieldKey: field.key,
        ...(ref.thumbId ? { thumbId: ref.thumbId } : {}),
      });
    }
    for (const { id, ...ref } of readers[field.type]?.references?.(value) ?? []) {
      if (!out.has(id)) out.set(id, { ...ref, fieldKey: field.key });
    }
  });
  // fromEntries defines own properties, so an id such as "__proto__" stays an ordinary key.
  return Object.fromEntries(out) as Record<string, ItemReference>;
}
