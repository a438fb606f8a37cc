import { applyOp, ModelChangeError } from '@shared/model/apply';
import { isFieldOp } from '@shared/model/find';
import type { ContentModelDoc, FieldOwner, ModelOp } from '@shared/model/types';
import { modelProblem } from '@shared/model/validate';
import type { FieldDef } from '@shared/schemas/types';

/**
 * The pending change set of the content model screen: operations made against one version of the
 * model, shown applied (by the shared engine, so the screen refuses what the server would) until they
 * are applied or discarded.
 */
export interface PendingChanges {
  baseVersion: number;
  base: ContentModelDoc;
  ops: readonly ModelOp[];
}

export type Outcome = { ops: ModelOp[]; dropped: number } | { error: string };

const messageOf = (error: unknown) =>
  error instanceof ModelChangeError ? error.message.replace(/^ops\.\d+ \(\w+\): /, '') : String(error);

const baseProblems = new WeakMap<ContentModelDoc, string | undefined>();

/** A problem the model read already has, which operations made on it cannot be blamed for. */
function problemOfBase(base: ContentModelDoc): string | undefined {
  if (!baseProblems.has(base)) baseProblems.set(base, modelProblem(base));
  return baseProblems.get(base);
}

/** The model with the operations applied, or the first refusal or new problem as a message. */
function applied(
  base: ContentModelDoc,
  ops: readonly ModelOp[],
): { model: ContentModelDoc } | { error: string } {
  const model = structuredClone(base);
  try {
    ops.forEach((op, index) => applyOp(model, op, index));
  } catch (error) {
    return { error: messageOf(error) };
  }
  const problem = modelProblem(model);
  return problem && problem !== problemOfBase(base) ? { error: problem } : { model };
}

/** The model with the pending operations applied. */
export function pendingModel({ base, ops }: PendingChanges): ContentModelDoc {
  const outcome = applied(base, ops);
  if ('error' in outcome) throw new ModelChangeError(outcome.error);
  return outcome.model;
}

/**
 * The operations with `added` appended, or the engine's refusal. An edit of a field that a pending
 * `addField` added is folded into that operation (its removal drops it), so a new field is one change
 * however often it is edited.
 */
export function withOps(pending: PendingChanges, added: readonly ModelOp[]): Outcome {
  const problemOf = (ops: readonly ModelOp[]) => {
    const outcome = applied(pending.base, ops);
    return 'error' in outcome ? outcome.error : undefined;
  };
  const folded = foldIntoAdd(pending.ops, added);
  if (folded && problemOf(folded) === undefined) return { ops: folded, dropped: 0 };
  const appended = [...pending.ops, ...added];
  const problem = problemOf(appended);
  return problem === undefined ? { ops: appended, dropped: 0 } : { error: problem };
}

const sameOwner = (a: FieldOwner, b: FieldOwner) =>
  a.schema === b.schema && a.blockType === b.blockType && a.table === b.table;

/**
 * The columns of table `table` after the column operations `ops` (each naming that table), applied by
 * the shared engine to the table alone; a refusal is thrown as a `ModelChangeError` without the index.
 */
export function columnsWithOps(table: FieldDef, ops: readonly ModelOp[]): FieldDef[] {
  const owner = ops[0] as (FieldOwner & ModelOp) | undefined;
  if (!owner) return table.type === 'table' ? [...table.columns] : [];
  const holder = { name: owner.schema ?? owner.blockType, title: '', fields: [table], topFields: [] };
  const model = (owner.blockType !== undefined
    ? { domains: [], blockTypes: [holder] }
    : {
        domains: [{ name: '', title: '', schemas: [holder] }],
        blockTypes: [],
      }) as unknown as ContentModelDoc;
  try {
    ops.forEach((op, index) => applyOp(model, op, index));
  } catch (error) {
    throw new ModelChangeError(messageOf(error));
  }
  const changed = holder.fields[0];
  return changed?.type === 'table' ? [...changed.columns] : [];
}

/**
 * The column operations `added` merged into the pending `addField` of their table, if any: a table
 * added in the change set carries its columns inline.
 */
function foldColumnsIntoAdd(ops: readonly ModelOp[], added: readonly ModelOp[]): ModelOp[] | undefined {
  const first = added[0] as (FieldOwner & ModelOp) | undefined;
  const table = first?.table;
  if (table === undefined || !added.every(isFieldOp)) return undefined;
  if (!added.every((op) => sameOwner(op as FieldOwner & ModelOp, first as FieldOwner))) return undefined;
  const tableOwner = { ...first, table: undefined } as FieldOwner;
  const at = ops.findIndex(
    (op) => op.op === 'addField' && sameOwner(op, tableOwner) && op.field.key === table,
  );
  if (at < 0) return undefined;
  const add = ops[at] as Extract<ModelOp, { op: 'addField' }>;
  try {
    return ops.with(at, {
      ...add,
      field: { ...add.field, columns: columnsWithOps(add.field, added) } as FieldDef,
    });
  } catch {
    return undefined;
  }
}

/** The operations with the field edits `added` merged into the pending `addField` of that field, if any. */
function foldIntoAdd(ops: readonly ModelOp[], added: readonly ModelOp[]): ModelOp[] | undefined {
  const columns = foldColumnsIntoAdd(ops, added);
  if (columns) return columns;
  const first = added[0];
  if (!first || !['renameField', 'retypeField', 'updateField', 'removeField'].includes(first.op))
    return undefined;
  const owner = first as FieldOwner & ModelOp;
  const key = first.op === 'renameField' ? first.from : (first as { key: string }).key;
  const at = ops.findIndex((op) => op.op === 'addField' && sameOwner(op, owner) && op.field.key === key);
  if (at < 0) return undefined;
  const add = ops[at] as Extract<ModelOp, { op: 'addField' }>;
  if (added.length === 1 && first.op === 'removeField') return ops.toSpliced(at, 1);
  let field: FieldDef = add.field;
  for (const op of added) {
    if (op.op === 'renameField') field = { ...field, key: op.to };
    else if (op.op === 'retypeField') field = op.field;
    else if (op.op === 'updateField') field = patchedField(field, op.patch);
    else return undefined;
  }
  return ops.with(at, { ...add, field });
}

function patchedField(field: FieldDef, patch: Readonly<Record<string, unknown>>): FieldDef {
  const next = { ...field } as Record<string, unknown>;
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next as unknown as FieldDef;
}

/**
 * Operations kept, in order, when they apply to `base`: those that depended on a left-out operation
 * (an edit of a field whose adding was dropped) are left out too and counted.
 */
function keptOps(base: ContentModelDoc, ops: readonly ModelOp[]): Outcome {
  let model = structuredClone(base);
  const kept: ModelOp[] = [];
  for (const op of ops) {
    const next = structuredClone(model);
    try {
      applyOp(next, op, kept.length);
    } catch {
      continue;
    }
    model = next;
    kept.push(op);
  }
  const problem = modelProblem(model);
  if (problem && problem !== problemOfBase(base)) return { error: problem };
  return { ops: kept, dropped: ops.length - kept.length };
}

/** The operations without the one at `index`, and any that only applied after it. */
export const withoutOp = (pending: PendingChanges, index: number): Outcome =>
  keptOps(
    pending.base,
    pending.ops.filter((_, at) => at !== index),
  );

/** The pending operations made again against a newer model: those that still apply. */
export const rebasedOps = (base: ContentModelDoc, ops: readonly ModelOp[]): Outcome => keptOps(base, ops);

/**
 * Removing a field of a schema: its place among the top fields and as the thumbnail is taken out first,
 * in the same change set, since the model may not name a field it no longer has.
 */
export function removeFieldOps(model: ContentModelDoc, owner: FieldOwner, key: string): ModelOp[] {
  const remove: ModelOp = { op: 'removeField', ...owner, key };
  const schema = model.domains.flatMap((domain) => domain.schemas).find((s) => s.name === owner.schema);
  if (!schema) return [remove];
  const patch: Record<string, unknown> = {};
  if (schema.topFields.includes(key)) patch.topFields = schema.topFields.filter((top) => top !== key);
  if (schema.thumbnail === key) patch.thumbnail = null;
  return Object.keys(patch).length > 0
    ? [{ op: 'updateSchema', schema: schema.name, patch }, remove]
    : [remove];
}
