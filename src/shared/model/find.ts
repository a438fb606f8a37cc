/**
 * Lookups in a content model by name, for the change-set engine: each answers where a thing is (its
 * list and index) and refuses with a message when nothing has that name.
 */
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import type { ContentModelDoc, FieldOwner, ModelDomain, ModelOp } from './types';

const FIELD_OPS = [
  'addField',
  'updateField',
  'renameField',
  'retypeField',
  'removeField',
  'moveField',
] as const;

export type FieldOp = Extract<ModelOp, { op: (typeof FIELD_OPS)[number] }>;

/** Whether the operation acts on a field of a schema or block type. */
export const isFieldOp = (op: ModelOp): op is FieldOp => (FIELD_OPS as readonly string[]).includes(op.op);

/** A problem with an operation; `applyOps` names the operation in front of the message. */
export class OpRefusal extends Error {}

export function refuse(message: string): never {
  throw new OpRefusal(message);
}

export function findDomain(model: ContentModelDoc, name: string): { domain: ModelDomain; index: number } {
  const index = model.domains.findIndex((domain) => domain.name === name);
  if (index < 0) refuse(`There is no domain "${name}"`);
  return { domain: model.domains[index], index };
}

export function findSchema(
  model: ContentModelDoc,
  name: string,
): { domain: ModelDomain; schema: SchemaType; index: number } {
  for (const domain of model.domains) {
    const index = domain.schemas.findIndex((schema) => schema.name === name);
    if (index >= 0) return { domain, schema: domain.schemas[index], index };
  }
  refuse(`There is no schema "${name}"`);
}

export function findBlockType(model: ContentModelDoc, name: string): { blockType: BlockType; index: number } {
  const index = model.blockTypes.findIndex((blockType) => blockType.name === name);
  if (index < 0) refuse(`There is no block type "${name}"`);
  return { blockType: model.blockTypes[index], index };
}

/** The schema or block type a field operation acts on, and how messages name it. */
export function findOwner(
  model: ContentModelDoc,
  owner: FieldOwner,
): { holder: SchemaType | BlockType; where: string } {
  const found =
    owner.blockType !== undefined
      ? { holder: findBlockType(model, owner.blockType).blockType, where: `Block type "${owner.blockType}"` }
      : { holder: findSchema(model, owner.schema).schema, where: `Schema "${owner.schema}"` };
  return owner.table === undefined ? found : columnsOf(found.holder, owner.table, found.where);
}

/**
 * The columns of a table field as a holder of fields: setting its `fields` sets the table's columns.
 * A locked table's columns cannot change (Marquee relies on them).
 */
function columnsOf(owner: SchemaType | BlockType, key: string, where: string) {
  const table = () => {
    const field = owner.fields.find((candidate) => candidate.key === key);
    if (field?.type !== 'table') refuse(`${where} has no table field "${key}"`);
    return field;
  };
  if (table().locked)
    refuse(`${where}: field "${key}" is locked (Marquee relies on it); its columns cannot change`);
  const holder = {
    name: owner.name,
    get fields() {
      return table().columns;
    },
    set fields(columns: readonly FieldDef[]) {
      owner.fields = owner.fields.map((field) => (field.key === key ? { ...field, columns } : field));
    },
  };
  return { holder: holder as BlockType, where: `${where}, table "${key}"` };
}

export function findField(
  holder: { fields: readonly FieldDef[] },
  key: string,
  where: string,
): { field: FieldDef; index: number } {
  const index = holder.fields.findIndex((field) => field.key === key);
  if (index < 0) refuse(`${where} has no field "${key}"`);
  return { field: holder.fields[index], index };
}

/** Only the owner part of a field operation, to address the same owner in another operation. */
export const ownerOf = (op: FieldOwner): FieldOwner => ({
  ...(op.blockType !== undefined ? { blockType: op.blockType } : { schema: op.schema }),
  ...(op.table !== undefined && { table: op.table }),
});

/** The fields with the columns of their tables, at any depth. */
export const allFields = (fields: readonly FieldDef[]): FieldDef[] =>
  fields.flatMap((field) => (field.type === 'table' ? [field, ...allFields(field.columns)] : [field]));

export const allowsBlockType = (field: FieldDef, name: string) =>
  field.type === 'blocks' && field.blockTypes.includes(name);
