import type { FieldDef, NameSlugField, SchemaType } from '@shared/schemas/types';
import { generatableValue, isGeneratedField } from '@shared/validation/generatable';
import { nameSlugValue } from '@shared/validation/name-slug';

type Data = Readonly<Record<string, unknown>>;

/** The field an item's title is read from (as the audit log and the lists read it): title, else name. */
function titleFieldOf(schema: Pick<SchemaType, 'fields'>): FieldDef | undefined {
  for (const key of ['title', 'name']) {
    const field = schema.fields.find((f) => f.key === key);
    if (field && (field.type === 'text' || field.type === 'multiline')) return field;
  }
  return undefined;
}

/** The title of the n-th copy (from 1): 'Spring launch (copy)', 'Spring launch (copy 2)'. */
const copyTitle = (title: string, n: number) => `${title} (copy${n > 1 ? ` ${n}` : ''})`;

/** Whether a name-slug follows the title it derives from, rather than being typed by hand. */
const followsTitle = (field: NameSlugField, data: Data, titleKey: string | undefined) =>
  field.from === titleKey &&
  (data[field.key] === undefined ||
    data[field.key] === '' ||
    data[field.key] === nameSlugValue('', data[field.from], field.keepsDataKeys));

/**
 * The data of the n-th copy of an item: its title marked as a copy; each name-slug that followed the
 * title derived from the new one, and each typed by hand marked too ('launch-copy', 'launch-copy-2'),
 * so slugs and the keys they make stay unique; generated values generated anew; service connections
 * left out (a copy connects on its own). Everything else is kept as it is: references, files (shared,
 * not copied), rich text, blocks, locales.
 */
export function copyData(schema: Pick<SchemaType, 'fields'>, data: Data, n: number): Record<string, unknown> {
  const title = titleFieldOf(schema);
  const copy: Record<string, unknown> = { ...data };
  if (title && typeof data[title.key] === 'string' && data[title.key] !== '')
    copy[title.key] = copyTitle(data[title.key] as string, n);
  for (const field of schema.fields) {
    if (field.type === 'name-slug') {
      const slug = data[field.key];
      if (followsTitle(field, data, title?.key)) {
        const derived = nameSlugValue('', copy[field.from], field.keepsDataKeys);
        if (derived || slug !== undefined) copy[field.key] = derived;
      } else if (typeof slug === 'string' && slug !== '') {
        copy[field.key] = nameSlugValue(
          `${slug}-copy${n > 1 ? `-${n}` : ''}`,
          undefined,
          field.keepsDataKeys,
        );
      }
    } else if (field.type === 'generatable' && isGeneratedField(field) && data[field.key] !== undefined) {
      copy[field.key] = generatableValue(field, undefined);
    } else if (field.type === 'service-connection') {
      delete copy[field.key];
    }
  }
  return copy;
}

/** The values of the n-th copy that must be unique among the schema's items: its title and its slugs. */
export function uniqueValuesOf(schema: Pick<SchemaType, 'fields'>, copy: Data): Record<string, string> {
  const keys = [
    titleFieldOf(schema)?.key,
    ...schema.fields.filter((f) => f.type === 'name-slug').map((f) => f.key),
  ];
  const values: Record<string, string> = {};
  for (const key of keys)
    if (key !== undefined && typeof copy[key] === 'string' && copy[key] !== '')
      values[key] = copy[key] as string;
  return values;
}
