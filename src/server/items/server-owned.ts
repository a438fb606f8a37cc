import { LOCALES_KEY } from '@shared/locales/locales';
import { nestedEntries } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { FILE_NOT_FOUND, fileRecordsOf } from '../files/service';
import { badRequest } from '../http/errors';

/**
 * Values the server owns inside item data are taken from the server's records on
 * every save, whatever the client sends: a file field's facts from the `files` table, a service
 * connection's tokens and profile from the item's stored version.
 */

type Holder = Record<string, unknown>;
interface Slot {
  holder: Holder;
  key: string;
  /** The field as validation messages name it: data.coverImage, data.rows.0.image. */
  path: string;
}

const isHolder = (value: unknown): value is Holder =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every value of a field type in item data: top-level fields, table rows, blocks and combination overrides. */
function slotsOfType(schema: SchemaType, data: Holder, type: FieldDef['type']): Slot[] {
  const slots: Slot[] = [];
  const overridable = schema.fields.filter((field) => field.type !== 'combinations');
  const visit = (fields: readonly FieldDef[], holder: Holder, path: string) => {
    for (const field of fields) {
      if (!Object.hasOwn(holder, field.key)) continue;
      const value = holder[field.key];
      const here = `${path}.${field.key}`;
      if (field.type === type && isHolder(value)) slots.push({ holder, key: field.key, path: here });
      for (const entry of nestedEntries(field, value, schema.blockTypes))
        visit(entry.fields, entry.data, `${here}.${entry.index}`);
      if (field.type === 'combinations' && Array.isArray(value)) {
        value.forEach(
          (row, i) =>
            isHolder(row) &&
            isHolder(row.overrides) &&
            visit(overridable, row.overrides, `${here}.${i}.overrides`),
        );
      }
    }
  };
  visit(schema.fields, data, 'data');
  const locales = data[LOCALES_KEY];
  if (isHolder(locales)) {
    for (const [tag, values] of Object.entries(locales))
      if (isHolder(values)) visit(schema.fields, values, `data.${LOCALES_KEY}.${tag}`);
  }
  return slots;
}

/**
 * File values get size, type, hash, URL, storage name and analysis from the workspace's file record;
 * only the name and focal point are the client's. A file that is not an upload of this workspace is
 * refused (400 naming the field).
 */
export async function takeFileFacts(ctx: AppContext, workspaceId: string, schema: SchemaType, data: Holder) {
  const slots = slotsOfType(schema, data, 'file');
  if (slots.length === 0) return;
  const names = slots.map((slot) => String((slot.holder[slot.key] as Holder).storageName));
  const records = await fileRecordsOf(ctx, workspaceId, [...new Set(names)]);
  slots.forEach((slot, i) => {
    const record = records.get(names[i]);
    if (!record) throw badRequest(`${slot.path}: ${FILE_NOT_FOUND}`);
    const { name, focusX, focusY } = slot.holder[slot.key] as Holder;
    const { sanityResults, ...facts } = record;
    slot.holder[slot.key] = {
      ...facts,
      name: typeof name === 'string' && name ? name : record.name,
      focusX: typeof focusX === 'number' ? focusX : record.focusX,
      focusY: typeof focusY === 'number' ? focusY : record.focusY,
      ...(sanityResults ? { sanityResults } : {}),
    };
  });
}
