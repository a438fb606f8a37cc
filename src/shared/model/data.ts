/**
 * What a change-set operation does to one item's data. A field's values live in several places: the
 * item's own value (and a date-time's `{key}_tz` zone), each other locale's value under
 * `_locales[tag]`, each combination row's overrides, and, for a block type's field, every block of
 * that type at any depth. Renames move them, retypes convert them (keeping those that do not convert,
 * and reporting them), removals strip them; what an operation replaces or removes is kept so that a
 * revert can put it back.
 */
import { LOCALES_KEY } from '../locales/locales';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { timezoneKey } from '../schemas/types';
import { ownValue } from '../text/reserved-names';
import { convertValue } from './convert';
import type { ModelOp } from './types';
import { isRecord } from './validate';

type Data = Record<string, unknown>;

/**
 * A step from a value to one inside it: an object key, a block by its `_key`, a combination row by its
 * `_slug`, or a list index where the entry has neither (so a revert finds a block after a reorder).
 */
type PathStep = string | number | { _key: string } | { _slug: string };

/** A value an operation replaced or removed, and where it was. */
export interface KeptValue {
  at: PathStep[];
  value: unknown;
}

export interface DataChange {
  data: Data;
  /** The values the operation replaced or removed, for `restoreKept`. */
  kept?: KeptValue[];
  /** Values a retype could not convert, left as they were: `{ path: 'sections.2.title', error }`. */
  failed?: { path: string; error: string }[];
  changed: boolean;
}

/** One place holding a field's value: the object, and where it is in the item's data. */
interface Slot {
  holder: Data;
  at: PathStep[];
  path: string;
  isLocale: boolean;
}

const companionsOf = (field: FieldDef | undefined, key: string) =>
  field?.type === 'datetime' ? [key, timezoneKey(key)] : [key];

/**
 * The item's data after `op`, given the schema and block types as they were before it. Operations
 * without an effect on data answer the same data object with `changed: false`.
 */
export function transformItemData(
  data: Data,
  op: ModelOp,
  schemaBefore: SchemaType,
  blockTypesBefore: Readonly<Record<string, BlockType>>,
): DataChange {
  const target = fieldTarget(op, schemaBefore, blockTypesBefore);
  if (!target) return { data, changed: false };
  const { key, field, blockType } = target;
  const copy = structuredClone(data);
  const slots = blockType
    ? blockSlots(copy, schemaBefore, blockTypesBefore, blockType)
    : itemSlots(copy, schemaBefore, field);
  const change = new Recorder();
  for (const slot of slots) change.apply(slot, op, key, field);
  return change.result(data, copy);
}

type DataOp = Extract<ModelOp, { op: 'renameField' | 'retypeField' | 'removeField' | 'updateField' }>;

/** Whether an operation may change stored values: renames, retypes, removals, and `localized` updates. */
const isDataOp = (op: ModelOp): op is DataOp =>
  op.op === 'renameField' ||
  op.op === 'retypeField' ||
  op.op === 'removeField' ||
  (op.op === 'updateField' && isRecord(op.patch) && 'localized' in op.patch);

/** The key an operation with an effect on data acts on, in this schema or one of its block types. */
function fieldTarget(op: ModelOp, schema: SchemaType, blockTypes: Readonly<Record<string, BlockType>>) {
  if (!isDataOp(op)) return undefined;
  const key = op.op === 'renameField' ? op.from : op.key;
  const { blockType } = op;
  const holder =
    blockType !== undefined
      ? ownValue(blockTypes, blockType)
      : op.schema === schema.name
        ? schema
        : undefined;
  if (!holder || typeof key !== 'string') return undefined;
  return { key, field: holder.fields.find((candidate) => candidate.key === key), blockType };
}

/** Collects what an operation keeps and what fails while it changes the slots of a copy. */
class Recorder {
  kept: KeptValue[] = [];
  failed: { path: string; error: string }[] = [];
  changed = false;

  apply(slot: Slot, op: ModelOp, key: string, field: FieldDef | undefined) {
    if (op.op === 'renameField') {
      const to = companionsOf(field, op.to);
      companionsOf(field, key).forEach((from, index) => this.move(slot, from, to[index]));
    } else if (op.op === 'removeField') {
      for (const companion of companionsOf(field, key)) this.remove(slot, companion);
    } else if (op.op === 'retypeField' && field) {
      this.retype(slot, field, op.field);
    } else if (op.op === 'updateField' && slot.isLocale && field?.localized) {
      if ('localized' in op.patch && !op.patch.localized) this.remove(slot, key);
    }
  }

  private keep(slot: Slot, key: string) {
    this.kept.push({ at: [...slot.at, key], value: slot.holder[key] });
  }

  private move(slot: Slot, from: string, to: string) {
    if (!Object.hasOwn(slot.holder, from)) return;
    if (Object.hasOwn(slot.holder, to)) this.keep(slot, to);
    slot.holder[to] = slot.holder[from];
    delete slot.holder[from];
    this.changed = true;
  }

  private remove(slot: Slot, key: string) {
    if (!Object.hasOwn(slot.holder, key)) return;
    this.keep(slot, key);
    delete slot.holder[key];
    this.changed = true;
  }

  private retype(slot: Slot, before: FieldDef, after: FieldDef) {
    if (before.type === 'datetime' && after.type !== 'datetime') this.remove(slot, timezoneKey(before.key));
    if (slot.isLocale && !after.localized) return this.remove(slot, before.key);
    if (!Object.hasOwn(slot.holder, before.key)) return;
    const conversion = convertValue(slot.holder[before.key], before, after);
    if (!conversion.ok) {
      this.failed.push({ path: slot.path + before.key, error: conversion.error });
      return;
    }
    this.keep(slot, before.key);
    if (conversion.value === undefined) delete slot.holder[before.key];
    else slot.holder[before.key] = conversion.value;
    this.changed = true;
  }

  result(data: Data, copy: Data): DataChange {
    const failed = this.failed.length > 0 ? { failed: this.failed } : {};
    if (!this.changed) return { data, changed: false, ...failed };
    return { data: copy, kept: this.kept, ...failed, changed: true };
  }
}

/** The item's own fields, each other locale's values, and each combination row's overrides. */
function itemSlots(data: Data, schema: SchemaType, field: FieldDef | undefined): Slot[] {
  const slots: Slot[] = [{ holder: data, at: [], path: '', isLocale: false }];
  const locales = data[LOCALES_KEY];
  if (isRecord(locales)) {
    for (const [tag, values] of Object.entries(locales))
      if (isRecord(values))
        slots.push({
          holder: values,
          at: [LOCALES_KEY, tag],
          path: `${LOCALES_KEY}.${tag}.`,
          isLocale: true,
        });
  }
  if (field?.type === 'combinations') return slots;
  return [...slots, ...overrideSlots(data, schema)];
}

function overrideSlots(data: Data, schema: SchemaType): Slot[] {
  return schema.fields
    .filter((field) => field.type === 'combinations')
    .flatMap(({ key }) => {
      const rows = data[key];
      if (!Array.isArray(rows)) return [];
      return rows.flatMap((row, index) =>
        isRecord(row) && isRecord(row.overrides)
          ? [
              {
                holder: row.overrides,
                at: [key, stepOf(row, '_slug', index), 'overrides'],
                path: `${key}.${index}.overrides.`,
                isLocale: false,
              },
            ]
          : [],
      );
    });
}

function stepOf(entry: Data, id: '_key' | '_slug', index: number): PathStep {
  const value = entry[id];
  if (typeof value !== 'string') return index;
  return id === '_key' ? { _key: value } : { _slug: value };
}

/** Every block of the type, at any depth of the blocks fields of the item and of its overrides. */
function blockSlots(
  data: Data,
  schema: SchemaType,
  blockTypes: Readonly<Record<string, BlockType>>,
  type: string,
) {
  const roots = [{ holder: data, at: [] as PathStep[], path: '' }, ...overrideSlots(data, schema)];
  const overridable = schema.fields.filter((field) => field.type !== 'combinations');
  return roots
    .flatMap((root) =>
      blocksIn(root.holder, root === roots[0] ? schema.fields : overridable, blockTypes, root.at, root.path),
    )
    .filter((slot) => slot.holder._type === type);
}

function blocksIn(
  holder: Data,
  fields: readonly FieldDef[],
  blockTypes: Readonly<Record<string, BlockType>>,
  at: PathStep[],
  path: string,
): Slot[] {
  return fields.flatMap((field) => {
    const blocks = field.type === 'blocks' ? holder[field.key] : undefined;
    if (!Array.isArray(blocks)) return [];
    return blocks.flatMap((block, index) => {
      if (!isRecord(block)) return [];
      const slot = {
        holder: block,
        at: [...at, field.key, stepOf(block, '_key', index)],
        path: `${path}${field.key}.${index}.`,
        isLocale: false,
      };
      const blockType = typeof block._type === 'string' ? ownValue(blockTypes, block._type) : undefined;
      return [slot, ...(blockType ? blocksIn(block, blockType.fields, blockTypes, slot.at, slot.path) : [])];
    });
  });
}

/** The holder a path leads to in the data, or undefined where the data no longer has it. */
function holderAt(data: Data, steps: readonly PathStep[]): Data | undefined {
  let current: unknown = data;
  for (const step of steps) {
    if (typeof step === 'string') current = isRecord(current) ? ownValue(current, step) : undefined;
    else if (!Array.isArray(current)) return undefined;
    else if (typeof step === 'number') current = current[step];
    else {
      const [id, value] = Object.entries(step)[0];
      current = current.find((entry) => isRecord(entry) && entry[id] === value);
    }
  }
  return isRecord(current) ? current : undefined;
}

/**
 * The data with the values `op` kept put back, for reverting it (after the inverse operation's own
 * effect). A retype's values replace the converted ones; other values return where nothing is now.
 * A value whose block, row or locale the data no longer has is not restored.
 */
export function restoreKept(data: Data, op: ModelOp, kept: readonly KeptValue[]): Data {
  const copy = structuredClone(data);
  for (const { at, value } of kept) {
    const holder = holderAt(copy, at.slice(0, -1));
    const key = at.at(-1) as string;
    if (holder && (op.op === 'retypeField' || !Object.hasOwn(holder, key)))
      holder[key] = structuredClone(value);
  }
  return copy;
}
