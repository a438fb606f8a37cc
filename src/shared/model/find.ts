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
  if (owner.blockType !== undefined) {
    return {
      holder: findBlockType(model, owner.blockType).blockType,
      where: `Block type "${owner.blockType}"`,
    };
  }
  return { holder: findSchema(model, owner.schema).schema, where: `Schema "${owner.schema}"` };
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
export const ownerOf = (op: FieldOwner): FieldOwner =>
  op.blockType !== undefined ? { blockType: op.blockType } : { schema: op.schema };

/** The fields with the columns of their tables, at any depth. */
export const allFields = (fields: readonly FieldDef[]): FieldDef[] =>
  fields.flatMap((field) => (field.type === 'table' ? [field, ...allFields(field.columns)] : [field]));

export const allowsBlockType = (field: FieldDef, name: string) =>
  field.type === 'blocks' && field.blockTypes.includes(name);
