/**
 * A change set run over stored data: over one item while it is planned (what each operation does to
 * it), and over a row written in an older model version, which reads and the background migration
 * bring to the current one by replaying every change made since (`replayItem`, `replayCopy`).
 */
import type { Basics } from '../api/workspaces';
import { localizedSchema } from '../locales/locales';
import { validateLocalizedItem } from '../locales/validate';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { applyOp, applyOps } from './apply';
import { keptBeyondInverse, restoreKept, transformItemData, type KeptValue } from './data';
import type { ContentModelDoc, ModelOp } from './types';

type Data = Record<string, unknown>;

/** The model before each operation and after the last: `steps[i]` is what operation i starts from. */
export interface ModelSteps {
  ops: readonly ModelOp[];
  steps: readonly ContentModelDoc[];
}

/** The model after each operation; throws `ModelChangeError` naming the first one that cannot apply. */
export function stepsOf(doc: ContentModelDoc, ops: readonly ModelOp[]): ModelSteps {
  const steps = [doc];
  // A change set may pass through unsound models on its way: only the last one is checked.
  ops.slice(0, -1).forEach((op, i) => {
    const step = structuredClone(steps[i]);
    applyOp(step, op, i);
    steps.push(step);
  });
  steps.push(applyOps(doc, ops));
  return { ops, steps };
}

export function schemaIn(doc: ContentModelDoc, name: string): SchemaType | undefined {
  for (const domain of doc.domains)
    for (const schema of domain.schemas) if (schema.name === name) return schema;
  return undefined;
}

const blockTypesOf = (doc: ContentModelDoc): Record<string, BlockType> =>
  Object.fromEntries(doc.blockTypes.map((blockType) => [blockType.name, blockType]));

/** Schema operations that change neither data nor validity: a removed schema's items stay as they are, to come back with it. */
const DATA_NEUTRAL = new Set<ModelOp['op']>(['updateSchema', 'moveSchema', 'removeSchema', 'moveField']);

/** Whether an operation can change the data or the validity of items of `schema`. */
export function touchesSchema(op: ModelOp, schema: string, before: ContentModelDoc): boolean {
  if ('schema' in op && op.schema === schema)
    return !DATA_NEUTRAL.has(op.op) && !(op.op === 'addField' && op.field.required !== true);
  if (
    'blockType' in op &&
    typeof op.blockType === 'string' &&
    op.op !== 'updateBlockType' &&
    op.op !== 'moveBlockType'
  ) {
    const found = schemaIn(before, schema);
    return !!found?.fields.some((field) => field.type === 'blocks');
  }
  return false;
}

/** The schemas whose items a change set may change or make incomplete. */
export function schemasTouched({ ops, steps }: ModelSteps): string[] {
  const names = new Set<string>();
  ops.forEach((op, i) => {
    for (const domain of steps[i].domains)
      for (const schema of domain.schemas)
        if (touchesSchema(op, schema.name, steps[i])) names.add(schema.name);
  });
  return [...names];
}

/**
 * The schemas whose items a change set may change or make incomplete; for a revert also those it adds
 * a field back to, whose values the reverted change kept.
 */
export function schemasChanged(plan: ModelSteps, isRevert: boolean): string[] {
  const touched = schemasTouched(plan);
  if (!isRevert) return touched;
  const added = plan.ops.flatMap((op) =>
    op.op === 'addField' && op.schema !== undefined ? [op.schema] : [],
  );
  return [...new Set([...touched, ...added])];
}

/** Whether operation i runs over an item: it touches the schema, or a revert puts kept values back with it. */
const runsOver = (plan: ModelSteps, i: number, schema: string, restore: Restore | undefined) =>
  touchesSchema(plan.ops[i], schema, plan.steps[i]) ||
  (restore !== undefined && Object.hasOwn(restore.kept, String(restore.reverted.length - 1 - i)));

/** What the operations do to one item: its new data, the values kept per operation, and the errors after each. */
export interface ItemOutcome {
  data: Data;
  changed: boolean;
  /** Operation index → what it replaced or removed (for a revert). */
  kept: Record<string, unknown>;
  /** Per operation, the field paths that newly fail validation after it. */
  failingAfter: string[][];
  /** Whether the item is incomplete under the final model. */
  hasErrors: boolean;
  /** Values that did not convert, as `path: error`. */
  failed: string[];
}

/** For a revert: the reverted change's operations and the values it kept of this item, by operation index. */
export interface Restore {
  reverted: readonly ModelOp[];
  kept: Record<string, unknown>;
}

type Locales = Pick<Basics, 'locales'>;

function validatorOf(schema: string, basics: Locales) {
  return (doc: ContentModelDoc, value: Data) => {
    const found = schemaIn(doc, schema);
    if (!found) return {};
    const shaped = basics.locales ? localizedSchema(found, basics.locales) : found;
    return validateLocalizedItem(shaped, value);
  };
}

/** A schema's fields, or the columns of its table field `table`. */
function fieldsOf(schema: SchemaType, table: string | undefined): readonly FieldDef[] {
  if (table === undefined) return schema.fields;
  const found = schema.fields.find((field) => field.key === table);
  return found?.type === 'table' ? found.columns : [];
}

/** One operation over the data (as it is before it), and the kept values of a revert put back. */
function runOp(
  plan: ModelSteps,
  i: number,
  schema: string,
  data: Data,
  restore: Restore | undefined,
): { data: Data; changed: boolean; kept?: unknown; failed: { path: string; error: string }[] } {
  const before = plan.steps[i];
  const op = plan.ops[i];
  let current = data;
  let changed = false;
  let kept: unknown;
  let failed: { path: string; error: string }[] = [];
  const schemaBefore = schemaIn(before, schema);
  if (schemaBefore) {
    const result = transformItemData(current, op, schemaBefore, blockTypesOf(before));
    changed = result.changed;
    kept = result.kept;
    const retyped =
      op.op === 'retypeField' &&
      !op.blockType &&
      fieldsOf(schemaBefore, op.table).find((f) => f.key === op.key);
    if (result.kept && retyped) {
      const needed = keptBeyondInverse(result.kept, result.data, retyped, (op as { field: FieldDef }).field);
      kept = needed.length > 0 ? needed : undefined;
    }
    failed = result.failed ?? [];
    current = result.data;
  }
  const undone = restore && String(restore.reverted.length - 1 - i);
  if (restore && undone !== undefined && Object.hasOwn(restore.kept, undone)) {
    current = restoreKept(current, op, restore.kept[undone] as KeptValue[], data);
    changed = true;
  }
  return { data: current, changed, kept, failed };
}

/**
 * Runs the operations over one item of `schema`. For a revert, whose operations undo the reverted
 * change's in reverse order (operation i undoes its n - 1 - i), values that change kept come back
 * instead of being converted again.
 */
export function passItem(
  plan: ModelSteps,
  schema: string,
  data: Data,
  basics: Locales,
  restore?: Restore,
): ItemOutcome {
  const validate = validatorOf(schema, basics);
  let current = data;
  let errors = Object.keys(validate(plan.steps[0], current));
  const outcome: ItemOutcome = {
    data,
    changed: false,
    kept: {},
    failingAfter: [],
    hasErrors: false,
    failed: [],
  };
  const unconverted: string[] = [];
  plan.ops.forEach((_, i) => {
    if (!runsOver(plan, i, schema, restore)) {
      outcome.failingAfter.push([]);
      return;
    }
    const result = runOp(plan, i, schema, current, restore);
    if (result.changed) outcome.changed = true;
    if (result.kept !== undefined) outcome.kept[String(i)] = result.kept;
    for (const failure of result.failed) outcome.failed.push(`${failure.path}: ${failure.error}`);
    unconverted.push(...result.failed.map((failure) => failure.path));
    current = result.data;
    // A value left unconverted fails as long as it is there, beside the form's own rules.
    const after = [...new Set([...Object.keys(validate(plan.steps[i + 1], current)), ...unconverted])];
    outcome.failingAfter.push(after.filter((path) => !errors.includes(path)));
    errors = after;
  });
  outcome.data = current;
  outcome.hasErrors = errors.length > 0;
  return outcome;
}

/** An applied change set as rows written before it replay it. */
export interface AppliedChange {
  /** The model version it made (its base version + 1). */
  version: number;
  plan: ModelSteps;
  /** The schemas whose items it may change or make incomplete (`schemasTouched`). */
  schemas: readonly string[];
  /** For a revert: the change it undoes (its id and version) and that change's operations. */
  reverts?: { id: string; version: number; ops: readonly ModelOp[] };
}

/** An item brought from an older model version to the newest of the changes replayed. */
export interface Replayed {
  data: Data;
  changed: boolean;
  hasErrors: boolean;
  /** Per change version, what it replaced or removed (operation index → values), for its revert. */
  kept: Map<number, Record<string, unknown>>;
  /** Values that did not convert, as `path: error`. */
  failed: string[];
}

/** The changes a row of `schema` written in model version `from` has not been through. */
export const changesSince = (changes: readonly AppliedChange[], schema: string, from: number) =>
  changes.filter((change) => change.version > from && change.schemas.includes(schema));

/**
 * An item of `schema` written in an older model version, as the changes since (oldest first, those
 * `changesSince` names) make it: what `passItem` does change after change, validated once against
 * `target` (the newest model). A revert puts back what the change it undoes kept: kept in this very
 * replay, or stored when that change's migration went past the item (`storedKept`).
 */
export function replayItem(
  changes: readonly AppliedChange[],
  schema: string,
  data: Data,
  basics: Locales,
  target: ContentModelDoc,
  storedKept: (changeId: string) => Record<string, unknown> | undefined = () => undefined,
): Replayed {
  const replayed: Replayed = { data, changed: false, hasErrors: false, kept: new Map(), failed: [] };
  const unconverted: string[] = [];
  for (const change of changes) {
    const { plan, reverts } = change;
    const restore = reverts && {
      reverted: reverts.ops,
      kept: replayed.kept.get(reverts.version) ?? storedKept(reverts.id) ?? {},
    };
    const kept: Record<string, unknown> = {};
    plan.ops.forEach((_, i) => {
      if (!runsOver(plan, i, schema, restore)) return;
      const result = runOp(plan, i, schema, replayed.data, restore);
      if (result.changed) replayed.changed = true;
      if (result.kept !== undefined) kept[String(i)] = result.kept;
      for (const failure of result.failed) replayed.failed.push(`${failure.path}: ${failure.error}`);
      unconverted.push(...result.failed.map((failure) => failure.path));
      replayed.data = result.data;
    });
    if (Object.keys(kept).length > 0) replayed.kept.set(change.version, kept);
  }
  const errors = Object.keys(validatorOf(schema, basics)(target, replayed.data));
  replayed.hasErrors = errors.length > 0 || unconverted.length > 0;
  return replayed;
}

/**
 * A stage copy (`copy`) or a history version (`history`) of an item of `schema` written in an older
 * model version, as the changes since make it: a copy goes through every operation, as the item does
 * (what a revert kept is the item's, not the copy's), a history version through renames only, so it
 * keeps its values as they were under the fields' new names.
 */
export function replayCopy(
  changes: readonly AppliedChange[],
  schema: string,
  data: Data,
  kind: 'copy' | 'history',
): Data {
  let current = data;
  for (const { plan } of changes) {
    plan.ops.forEach((op, i) => {
      if (kind === 'history' && op.op !== 'renameField') return;
      const before = plan.steps[i];
      const schemaBefore = schemaIn(before, schema);
      if (!schemaBefore || !touchesSchema(op, schema, before)) return;
      current = transformItemData(current, op, schemaBefore, blockTypesOf(before)).data;
    });
  }
  return current;
}
