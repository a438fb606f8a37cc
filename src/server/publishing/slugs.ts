import type { SchemaType } from '@shared/schemas/types';

/** The key of the schema's name-slug field: what the delivery API calls an item's slug. */
export function slugFieldOf(schema: SchemaType | undefined): string | undefined {
  return schema?.fields.find((field) => field.type === 'name-slug')?.key;
}

/** The item's slug, when its schema has a name-slug field and the value is set. */
export function slugOf(schema: SchemaType | undefined, data: Record<string, unknown>): string | null {
  const field = slugFieldOf(schema);
  const value = field ? data[field] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}
