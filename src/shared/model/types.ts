/**
 * A workspace's content model as data: its domains with their schemas, and the block types that blocks
 * fields use. Plain JSON all through, so it is stored, exported and sent to the browser as it is.
 */
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';

export interface ModelDomain {
  name: string;
  title: string;
  /** For workspace managers only (spec §3 "admin flag"). */
  admin?: boolean;
  landingSchema?: string;
  schemas: SchemaType[];
}

/** Blocks inside blocks go this deep at most. */
export const MAX_BLOCK_DEPTH = 5;

export interface ContentModelDoc {
  domains: ModelDomain[];
  blockTypes: BlockType[];
}

/** A field renamed lately: the delivery API answers it under its old name too, until `until`. */
export interface RenamedField {
  schema: string;
  from: string;
  to: string;
  /** ISO instant. */
  until: string;
}

/**
 * Where a field operation acts: a schema's fields or a block type's, or with `table` the columns of
 * that table field of the schema or block type.
 */
export type FieldOwner = (
  { schema: string; blockType?: undefined } | { blockType: string; schema?: undefined }
) & { table?: string };

/** Properties to set; null removes one. */
type Patch<T> = { [K in keyof T]?: T[K] | null };

/** Field properties an `updateField` may change: everything but its key and type. */
export type FieldPatch = Record<string, unknown>;

/**
 * One step of a change set. Field operations name their owner (`schema` or `blockType`); `index` is a
 * position in the owner's list of fields, the domain's list of schemas, or the model's list of domains
 * or block types (default: the end). A `patch` property set to null removes that property.
 */
export type ModelOp =
  | { op: 'addDomain'; domain: Omit<ModelDomain, 'schemas'>; index?: number }
  | { op: 'updateDomain'; domain: string; patch: Patch<Omit<ModelDomain, 'name' | 'schemas'>> }
  | { op: 'removeDomain'; domain: string }
  | { op: 'moveDomain'; domain: string; index: number }
  | { op: 'addSchema'; domain: string; schema: SchemaType; index?: number }
  | { op: 'updateSchema'; schema: string; patch: Patch<Omit<SchemaType, 'name' | 'fields'>> }
  | { op: 'removeSchema'; schema: string }
  | { op: 'moveSchema'; schema: string; domain: string; index?: number }
  | ({ op: 'addField'; field: FieldDef; index?: number } & FieldOwner)
  | ({ op: 'updateField'; key: string; patch: FieldPatch } & FieldOwner)
  | ({ op: 'renameField'; from: string; to: string } & FieldOwner)
  | ({ op: 'retypeField'; key: string; field: FieldDef } & FieldOwner)
  | ({ op: 'removeField'; key: string } & FieldOwner)
  | ({ op: 'moveField'; key: string; index: number } & FieldOwner)
  | { op: 'addBlockType'; blockType: BlockType; index?: number }
  | { op: 'updateBlockType'; blockType: string; patch: Patch<Omit<BlockType, 'name' | 'fields'>> }
  | { op: 'removeBlockType'; blockType: string }
  | { op: 'moveBlockType'; blockType: string; index: number };
