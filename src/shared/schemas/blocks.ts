import { randomAlphanumeric } from '../text/random-string';
import type { BlocksField, BlockType, FieldDef, SchemaType } from './types';

/**
 * Blocks fields (modular content): a value is an ordered list of blocks `{ _type, _key, …fields }`,
 * each of a block type of the content model (`schema.blockTypes`). Helpers here let every reader of
 * item data walk blocks the way it walks table rows.
 */

/** The model's block types by name, as a schema carries them. */
export type BlockTypes = NonNullable<SchemaType['blockTypes']>;

/** A block as item data holds it: its type's name, a key unique in its list, and its fields' values. */
export interface BlockValue {
  _type: string;
  _key: string;
  [key: string]: unknown;
}

/** A blocks field holds at most this many blocks, whatever its maxBlocks says. */
const MAX_BLOCKS = 500;
/** The longest `_key` a block may have. */
export const MAX_BLOCK_KEY_LENGTH = 64;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The block type of that name, when the model has one (only its own names: `constructor` is none). */
export function blockTypeNamed(blockTypes: BlockTypes | undefined, name: unknown): BlockType | undefined {
  return blockTypes && typeof name === 'string' && Object.hasOwn(blockTypes, name)
    ? blockTypes[name]
    : undefined;
}

/** The block types a blocks field allows that the model has, in the field's order. */
export function allowedBlockTypes(
  field: Pick<BlocksField, 'blockTypes'>,
  blockTypes: BlockTypes | undefined,
): BlockType[] {
  return [...new Set(field.blockTypes)].flatMap((name) => blockTypeNamed(blockTypes, name) ?? []);
}

/** The most blocks a blocks field may hold: its maxBlocks, never above `MAX_BLOCKS`. */
export const blocksLimit = (field: Pick<BlocksField, 'maxBlocks'>) =>
  Math.min(field.maxBlocks ?? MAX_BLOCKS, MAX_BLOCKS);

/** Whether another block may be added to a list of `count` blocks. */
export const canAddBlock = (field: Pick<BlocksField, 'maxBlocks'>, count: number) =>
  count < blocksLimit(field);

/** A fresh `_key` for a new block: 12 random letters and digits. */
const newBlockKey = () => randomAlphanumeric(12);

/** A new, empty block of a type. */
export const newBlock = (blockType: Pick<BlockType, 'name'>): BlockValue => ({
  _type: blockType.name,
  _key: newBlockKey(),
});

/** How a block's type reads: its title, or its stored `_type` when the model no longer has it. */
export function blockTitle(blockTypes: BlockTypes | undefined, block: unknown): string {
  const name = isRecord(block) ? block._type : undefined;
  return blockTypeNamed(blockTypes, name)?.title ?? (typeof name === 'string' && name ? name : 'Block');
}

/** Titles a summary names before it says how many more there are. */
const SUMMARY_TITLES = 5;

/** A blocks value in one line: '3 blocks: Hero, Feature grid, Call to action'; '' for none. */
export function blocksSummary(value: unknown, blockTypes: BlockTypes | undefined): string {
  const blocks = Array.isArray(value) ? value : [];
  if (blocks.length === 0) return '';
  const titles = blocks.slice(0, SUMMARY_TITLES).map((block) => blockTitle(blockTypes, block));
  const more = blocks.length - titles.length;
  const list = more > 0 ? `${titles.join(', ')} and ${more} more` : titles.join(', ');
  return `${blocks.length} block${blocks.length === 1 ? '' : 's'}: ${list}`;
}

/** An object of fields inside a field's value: a table row (the table's columns) or a block (its type's). */
export interface NestedEntry {
  /** Its position in the list. */
  index: number;
  fields: readonly FieldDef[];
  data: Record<string, unknown>;
}

/**
 * The rows of a table value or the blocks of a blocks value, each with its fields. Entries that are
 * no object, and blocks of a type the model does not have, are left out. Other fields have none.
 */
export function nestedEntries(field: FieldDef, value: unknown, blockTypes?: BlockTypes): NestedEntry[] {
  if ((field.type !== 'table' && field.type !== 'blocks') || !Array.isArray(value)) return [];
  const entries: NestedEntry[] = [];
  value.forEach((data: unknown, index) => {
    if (!isRecord(data)) return;
    const fields = field.type === 'table' ? field.columns : blockTypeNamed(blockTypes, data._type)?.fields;
    if (fields) entries.push({ index, fields, data });
  });
  return entries;
}

/**
 * A table or blocks value with each of its `nestedEntries` replaced by what `map` answers for it; the
 * same value when `map` answers every entry's own data (nothing changed).
 */
export function mapNestedEntries(
  field: FieldDef,
  value: unknown,
  blockTypes: BlockTypes | undefined,
  map: (entry: NestedEntry) => Record<string, unknown>,
): unknown {
  let out: unknown[] | undefined;
  for (const entry of nestedEntries(field, value, blockTypes)) {
    const next = map(entry);
    if (next !== entry.data) (out ??= [...(value as unknown[])])[entry.index] = next;
  }
  return out ?? value;
}
