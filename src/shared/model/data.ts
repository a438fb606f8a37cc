/**
 * What a change-set operation does to one item's data. A field's values live in several places: the
 * item's own value (and a date-time's `{key}_tz` zone), each other locale's value under
 * `_locales[tag]`, each combination row's overrides, and, for a block type's field, every block of
 * that type at any depth. Renames move them, retypes convert them (keeping those that do not convert,
 * and reporting them), removals strip them; what an operation replaces or removes is kept so that a
 * revert can put it back.
 */
import { LOCALES_KEY } from '../locales/locales';
import { sameValue } from '../schemas/compare';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { timezoneKey } from '../schemas/types';
import { ownValue } from '../text/reserved-names';
import { cloneJson } from './clone';
import { isEmptyValue } from '../validation/empty';
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
  /** For a value a retype converted: what it wrote in its place (`{}` when it wrote nothing). */
  converted?: { value?: unknown };
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
  const { key, field, blockType, table } = target;
  const copy = cloneJson(data);
  const holders = blockType
    ? blockSlots(copy, schemaBefore, blockTypesBefore, blockType)
    : itemSlots(copy, schemaBefore, table ?? field);
  const slots = table ? holders.flatMap((slot) => rowSlots(slot, table.key)) : holders;
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
  const owner =
    blockType !== undefined
      ? ownValue(blockTypes, blockType)
      : op.schema === schema.name
        ? schema
        : undefined;
  const table =
    op.table === undefined
      ? undefined
      : owner?.fields.find((candidate) => candidate.key === op.table && candidate.type === 'table');
  if (!owner || typeof key !== 'string' || (op.table !== undefined && table?.type !== 'table'))
    return undefined;
  const fields = table?.type === 'table' ? table.columns : owner.fields;
  return {
    key,
    field: fields.find((candidate) => candidate.key === key),
    blockType,
    table: table?.type === 'table' ? table : undefined,
  };
}

/** The rows of a holder's table field, each a place holding its columns' values. */
function rowSlots(slot: Slot, table: string): Slot[] {
  const rows = slot.holder[table];
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row, index) =>
    isRecord(row)
      ? [
          {
            holder: row,
            at: [...slot.at, table, index],
            path: `${slot.path}${table}.${index}.`,
            isLocale: false,
          },
        ]
      : [],
  );
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

  private keep(slot: Slot, key: string, converted?: KeptValue['converted']) {
    this.kept.push({ at: [...slot.at, key], value: slot.holder[key], ...(converted && { converted }) });
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
    this.keep(slot, before.key, conversion.value === undefined ? {} : { value: conversion.value });
    if (conversion.value === undefined) delete slot.holder[before.key];
    else slot.holder[before.key] = conversion.value;
    this.changed = true;
  }

  result(data: Data, copy: Data): DataChange {
    const failed = this.failed.length > 0 ? { failed: this.failed } : {};
    if (!this.changed) return { data, changed: false, ...failed };
    const kept = this.kept.length > 0 ? { kept: this.kept } : {};
    return { data: copy, ...kept, ...failed, changed: true };
  }
}

/** The item's own fields, each other locale's values, and each combination row's overrides. */
function itemSlots(data: Data, schema: SchemaType, field: FieldDef | undefined): Slot[] {
  const slots = [{ holder: data, at: [], path: '', isLocale: false }, ...localeSlots(data)];
  return field?.type === 'combinations' ? slots : [...slots, ...overrideSlots(data, schema)];
}

function localeSlots(data: Data): Slot[] {
  const locales = data[LOCALES_KEY];
  if (!isRecord(locales)) return [];
  return Object.entries(locales).flatMap(([tag, values]) =>
    isRecord(values)
      ? [{ holder: values, at: [LOCALES_KEY, tag], path: `${LOCALES_KEY}.${tag}.`, isLocale: true }]
      : [],
  );
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

/**
 * Every block of the type, at any depth: in blocks fields (and table rows) of the item, of its other
 * locales' values and of its combination rows' overrides.
 */
function blockSlots(
  data: Data,
  schema: SchemaType,
  blockTypes: Readonly<Record<string, BlockType>>,
  type: string,
) {
  const overridable = schema.fields.filter((field) => field.type !== 'combinations');
  const roots = [
    ...[{ holder: data, at: [], path: '' }, ...localeSlots(data)].map((root) => ({
      ...root,
      fields: schema.fields,
    })),
    ...overrideSlots(data, schema).map((root) => ({ ...root, fields: overridable })),
  ];
  return roots
    .flatMap((root) => blocksIn(root.holder, root.fields, blockTypes, root.at, root.path))
    .filter((slot) => slot.holder._type === type);
}

/** The blocks inside a holder's blocks fields and table rows, each followed by the blocks inside it. */
function blocksIn(
  holder: Data,
  fields: readonly FieldDef[],
  blockTypes: Readonly<Record<string, BlockType>>,
  at: PathStep[],
  path: string,
): Slot[] {
  return fields.flatMap((field) => {
    const entries = holder[field.key];
    if ((field.type !== 'blocks' && field.type !== 'table') || !Array.isArray(entries)) return [];
    return entries.flatMap((entry, index) => {
      if (!isRecord(entry)) return [];
      const isBlock = field.type === 'blocks';
      const step = isBlock ? stepOf(entry, '_key', index) : index;
      const slot = {
        holder: entry,
        at: [...at, field.key, step],
        path: `${path}${field.key}.${index}.`,
        isLocale: false,
      };
      const inner = isBlock
        ? typeof entry._type === 'string'
          ? ownValue(blockTypes, entry._type)?.fields
          : undefined
        : field.columns;
      const nested = blocksIn(entry, inner ?? [], blockTypes, slot.at, slot.path);
      return isBlock ? [slot, ...nested] : nested;
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
 * The data with what `op` did undone, from the values it kept: a revert runs this after the inverse
 * operation. A retype's kept values replace the converted ones where the value is still the one the
 * retype wrote (in `before`, the data as the revert found it); a value saved since is left as the
 * inverse made it. A rename's values move back first; other kept values return where nothing is now.
 * A value whose block, row or locale the data no longer has is not restored, and values written since
 * the operation stay as they are.
 */
export function restoreKept(data: Data, op: ModelOp, kept: unknown, before: Data = data): Data {
  const copy = cloneJson(data);
  if (op.op === 'renameField') {
    for (const holder of renamedHolders(copy, op)) {
      moveBack(holder, op.to, op.from);
      moveBack(holder, timezoneKey(op.to), timezoneKey(op.from));
    }
  }
  for (const entry of keptValues(kept)) {
    const { at, value } = entry;
    const holder = holderAt(copy, at.slice(0, -1));
    const key = at.at(-1) as string;
    if (!holder) continue;
    if (op.op === 'retypeField' ? unchangedSince(before, entry) : !Object.hasOwn(holder, key))
      holder[key] = cloneJson(value);
  }
  return copy;
}

/** Whether the value a retype converted is still the one it wrote (always, for values it only removed). */
function unchangedSince(data: Data, { at, converted }: KeptValue): boolean {
  if (!isRecord(converted)) return true;
  const holder = holderAt(data, at.slice(0, -1));
  const key = at.at(-1) as string;
  const now = holder && Object.hasOwn(holder, key) ? holder[key] : undefined;
  return Object.hasOwn(converted, 'value') ? sameValue(now, converted.value) : isEmptyValue(now);
}

/** The kept values as stored (JSON from the database): entries of another shape are passed over. */
const keptValues = (kept: unknown): KeptValue[] =>
  Array.isArray(kept)
    ? kept.filter(
        (entry): entry is KeptValue =>
          isRecord(entry) && Array.isArray(entry.at) && typeof entry.at.at(-1) === 'string',
      )
    : [];

function moveBack(holder: Data, from: string, to: string) {
  if (!Object.hasOwn(holder, from) || Object.hasOwn(holder, to)) return;
  holder[to] = holder[from];
  delete holder[from];
}

/**
 * Where a rename moved values, found without the schema (a revert has only the operation): the item,
 * its locales and its combination rows' overrides, or every block of the field's block type.
 */
function renamedHolders(data: Data, op: Extract<ModelOp, { op: 'renameField' }>): Data[] {
  const holders = ownersOfRenamed(data, op);
  if (op.table === undefined) return holders;
  return holders.flatMap((holder) => {
    const rows = holder[op.table!];
    return Array.isArray(rows) ? rows.filter(isRecord) : [];
  });
}

function ownersOfRenamed(data: Data, op: Extract<ModelOp, { op: 'renameField' }>): Data[] {
  if (op.blockType !== undefined) return recordsWhere(data, (record) => record._type === op.blockType);
  const rows = Object.values(data).flatMap((value) => (Array.isArray(value) ? value.filter(isRecord) : []));
  const overrides = rows.flatMap((row) =>
    typeof row._slug === 'string' && isRecord(row.overrides) ? [row.overrides] : [],
  );
  return [data, ...localeSlots(data).map((slot) => slot.holder), ...overrides];
}

function recordsWhere(value: unknown, matches: (record: Data) => boolean): Data[] {
  if (Array.isArray(value)) return value.flatMap((entry) => recordsWhere(entry, matches));
  if (!isRecord(value)) return [];
  const inner = Object.values(value).flatMap((entry) => recordsWhere(entry, matches));
  return matches(value) ? [value, ...inner] : inner;
}

/**
 * The values a retype kept that its inverse would not give back: a value that converts back to itself
 * ('4' → 4 → '4') need not be stored for a revert, which runs the inverse retype before it puts kept
 * values back. Kept values of anything else (a time zone dropped, a locale's value) stay.
 */
export function keptBeyondInverse(
  kept: readonly KeptValue[],
  dataAfter: Data,
  before: FieldDef,
  after: FieldDef,
): KeptValue[] {
  return kept.filter(({ at, value }) => {
    const key = at.at(-1);
    if (key !== before.key) return true;
    const holder = holderAt(dataAfter, at.slice(0, -1));
    if (!holder || !Object.hasOwn(holder, key)) return true;
    const back = convertValue(holder[key], after, before);
    return !back.ok || JSON.stringify(back.value) !== JSON.stringify(value);
  });
}
