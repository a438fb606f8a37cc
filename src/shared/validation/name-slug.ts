import type { FieldDef, SchemaType } from '../schemas/types';
import { toKebabCase } from '../text/slug';

/**
 * Spec §5 name-slug: typed text becomes kebab-case; cleared (blank) text derives the slug from the
 * source field, usually the name.
 */
export function nameSlugValue(typed: string | null | undefined, source: unknown): string {
  const text = typeof typed === 'string' ? typed : '';
  if (text.trim()) return toKebabCase(text);
  return typeof source === 'string' ? toKebabCase(source) : '';
}

/** The data with every name-slug field normalised (kebab-case, or derived from its source when empty). */
export function applyNameSlugs(
  fields: SchemaType['fields'],
  data: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...data };
  for (const field of fields as readonly FieldDef[]) {
    if (field.type !== 'name-slug') continue;
    const current = data[field.key];
    const slug = nameSlugValue(typeof current === 'string' ? current : '', data[field.from]);
    if (slug || current !== undefined) result[field.key] = slug;
  }
  return result;
}
