/**
 * The `data-marquee-edit` attribute a previewed page puts on an element to say which field it shows:
 * `{ws}:{schema}:{id}:{path}`, the path like `body`, `blocks.2` or `blocks.2.title`. Nothing is hidden
 * in the values themselves: the page asks for the attribute (or the delivery API's `_editInfo`).
 */
import { nestedEntries } from '../schemas/blocks';
import type { FieldDef, SchemaType } from '../schemas/types';

export const EDIT_ATTRIBUTE = 'data-marquee-edit';

interface EditTarget {
  ws: string;
  schema: string;
  id: string;
  path: string;
}

/** Workspace ids, schema names and item ids hold no colon; a path is dotted keys and indexes. */
const PART = /^[A-Za-z0-9_-]{1,100}$/;
const PATH = /^[A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64}){0,19}$/;

/** The attribute's value for a field path of an item. */
export const editAttribute = (ws: string, schema: string, id: string, path: string): string =>
  `${ws}:${schema}:${id}:${path}`;

/** The item and field path an attribute's value names, or undefined for a value that is not one. */
export function parseEditAttribute(value: string): EditTarget | undefined {
  const parts = value.split(':');
  if (parts.length !== 4) return undefined;
  const [ws, schema, id, path] = parts;
  if (![ws, schema, id].every((part) => PART.test(part)) || !PATH.test(path)) return undefined;
  return { ws, schema, id, path };
}

/**
 * Every path a page may mark in an item's data, with its attribute: each top-level field of the schema,
 * each block of a blocks field (`blocks.2`) and each field of a block (`blocks.2.title`), at any depth.
 */
export function editInfoOf(
  ws: string,
  schema: Pick<SchemaType, 'name' | 'fields' | 'blockTypes'>,
  id: string,
  data: Record<string, unknown>,
): Record<string, string> {
  const info: Record<string, string> = {};
  const add = (path: string) => (info[path] = editAttribute(ws, schema.name, id, path));
  const walk = (fields: readonly FieldDef[], values: Record<string, unknown>, prefix: string) => {
    for (const field of fields) {
      if (field.type === 'combinations') continue;
      const path = `${prefix}${field.key}`;
      add(path);
      if (field.type !== 'blocks') continue;
      for (const entry of nestedEntries(field, values[field.key], schema.blockTypes)) {
        add(`${path}.${entry.index}`);
        walk(entry.fields, entry.data, `${path}.${entry.index}.`);
      }
    }
  };
  walk(schema.fields, data, '');
  return info;
}
