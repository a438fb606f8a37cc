import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { localizedSchema } from '@shared/locales/locales';
import { validateLocalizedItem } from '@shared/locales/validate';
import { restoreKept, transformItemData, type KeptValue } from '@shared/model/data';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import type { BlockType, SchemaType } from '@shared/schemas/types';
import type { Basics } from '@shared/api/workspaces';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { items } from '../db/schema';
import { enqueue } from '../queue/queue';
import { SEARCH_TEXT_JOB, SEARCH_TEXT_QUEUE } from '../queue/queues';

type Data = Record<string, unknown>;

/** Items are read and written this many at a time. */
const BATCH = 500;

/** The model before each operation and after the last: `steps[i]` is what operation i starts from. */
export interface ModelSteps {
  ops: readonly ModelOp[];
  steps: readonly ContentModelDoc[];
}

function schemaIn(doc: ContentModelDoc, name: string): SchemaType | undefined {
  for (const domain of doc.domains)
    for (const schema of domain.schemas) if (schema.name === name) return schema;
  return undefined;
}

const blockTypesOf = (doc: ContentModelDoc): Record<string, BlockType> =>
  Object.fromEntries(doc.blockTypes.map((blockType) => [blockType.name, blockType]));

/** Whether an operation can change the data or the validity of items of `schema`. */
function touchesSchema(op: ModelOp, schema: string, before: ContentModelDoc): boolean {
  // A removed schema's items stay as they are, to come back with it.
  if ('schema' in op && op.schema === schema)
    return op.op !== 'updateSchema' && op.op !== 'moveSchema' && op.op !== 'removeSchema';
  if ('blockType' in op && typeof op.blockType === 'string' && op.op !== 'updateBlockType') {
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

/**
 * Runs the operations over one item of `schema`. For a revert, whose operations undo the reverted
 * change's in reverse order (operation i undoes its n - 1 - i), values that change kept come back
 * instead of being converted again.
 */
export function passItem(
  plan: ModelSteps,
  schema: string,
  data: Data,
  basics: Pick<Basics, 'locales'>,
  restore?: Restore,
): ItemOutcome {
  const validate = (doc: ContentModelDoc, value: Data) => {
    const found = schemaIn(doc, schema);
    if (!found) return {};
    const shaped = basics.locales ? localizedSchema(found, basics.locales) : found;
    return validateLocalizedItem(shaped, value);
  };
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
  plan.ops.forEach((op, i) => {
    const before = plan.steps[i];
    if (!touchesSchema(op, schema, before)) {
      outcome.failingAfter.push([]);
      return;
    }
    const schemaBefore = schemaIn(before, schema);
    if (schemaBefore) {
      const result = transformItemData(current, op, schemaBefore, blockTypesOf(before));
      if (result.changed) outcome.changed = true;
      if (result.kept !== undefined) outcome.kept[String(i)] = result.kept;
      for (const failure of result.failed ?? []) outcome.failed.push(`${failure.path}: ${failure.error}`);
      unconverted.push(...(result.failed ?? []).map((failure) => failure.path));
      current = result.data;
    }
    const undone = restore && String(restore.reverted.length - 1 - i);
    if (restore && undone !== undefined && Object.hasOwn(restore.kept, undone)) {
      current = restoreKept(current, op, restore.kept[undone] as KeptValue[]);
      outcome.changed = true;
    }
    // A value left unconverted fails as long as it is there, beside the form's own rules.
    const after = [...new Set([...Object.keys(validate(plan.steps[i + 1], current)), ...unconverted])];
    outcome.failingAfter.push(after.filter((path) => !errors.includes(path)));
    errors = after;
  });
  outcome.data = current;
  outcome.hasErrors = errors.length > 0;
  return outcome;
}

interface ItemRowLite {
  id: string;
  version: number;
  data: Data;
  hasErrors: boolean;
}

/** Every item of a schema, a batch at a time in id order (locking them when `forUpdate`). */
export async function* itemsOf(db: Db | Tx, workspaceId: string, schema: string, forUpdate = false) {
  let after = '';
  for (;;) {
    const query = db
      .select({ id: items.id, version: items.version, data: items.data, hasErrors: items.hasErrors })
      .from(items)
      .where(and(eq(items.workspaceId, workspaceId), eq(items.schema, schema), gt(items.id, after)))
      .orderBy(asc(items.id))
      .limit(BATCH);
    const batch: ItemRowLite[] = forUpdate ? await query.for('update') : await query;
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1].id;
    if (batch.length < BATCH) return;
  }
}

/**
 * Writes a batch of items' new data and completeness in one statement (their version is unchanged).
 * Their search text is computed again by the search-text job, under the new model.
 */
export async function writeItems(
  tx: Tx,
  workspaceId: string,
  schema: string,
  rows: { id: string; data: Data; hasErrors: boolean }[],
) {
  if (rows.length === 0) return;
  await tx.execute(sql`
    update items i set data = r.data, has_errors = r.has_errors, search_text = null
    from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, data: r.data, has_errors: r.hasErrors })))}::jsonb)
      as r(id text, data jsonb, has_errors boolean)
    where i.workspace_id = ${workspaceId} and i.schema = ${schema} and i.id = r.id`);
  await enqueue(tx, SEARCH_TEXT_QUEUE, {}, { singletonKey: SEARCH_TEXT_JOB });
}

/**
 * Applies the operations to the stage copies of a schema's items (what the delivery API answers) and,
 * for renames only, to their history, whose values stay as they were under the field's new name.
 */
export async function passCopiesAndHistory(tx: Tx, plan: ModelSteps, workspaceId: string, schema: string) {
  await passTable(tx, plan, 'published', workspaceId, schema, () => true);
  await passTable(tx, plan, 'item_versions', workspaceId, schema, (op) => op.op === 'renameField');
}

async function passTable(
  tx: Tx,
  plan: ModelSteps,
  table: 'published' | 'item_versions',
  workspaceId: string,
  schema: string,
  applies: (op: ModelOp) => boolean,
) {
  const ops = plan.ops.map((op, i) => [op, i] as const).filter(([op]) => applies(op));
  if (ops.length === 0) return;
  const key = table === 'published' ? sql.raw('id || chr(9) || stage') : sql.raw('item_id || chr(9) || num');
  let after = '';
  for (;;) {
    const batch = rows<{ k: string; data: Data }>(
      await tx.execute(sql`
        select ${key} as k, data from ${sql.raw(table)}
        where workspace_id = ${workspaceId} and schema = ${schema} and ${key} > ${after}
        order by 1 limit ${BATCH}`),
    );
    if (batch.length === 0) return;
    const changed: { k: string; data: Data }[] = [];
    for (const row of batch) {
      let data = row.data;
      let touched = false;
      for (const [op, i] of ops) {
        const schemaBefore = schemaIn(plan.steps[i], schema);
        if (!schemaBefore || !touchesSchema(op, schema, plan.steps[i])) continue;
        const result = transformItemData(data, op, schemaBefore, blockTypesOf(plan.steps[i]));
        if (result.changed) touched = true;
        data = result.data;
      }
      if (touched) changed.push({ k: row.k, data });
    }
    if (changed.length > 0)
      await tx.execute(sql`
        update ${sql.raw(table)} t set data = r.data
        from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as r(k text, data jsonb)
        where t.workspace_id = ${workspaceId} and t.schema = ${schema} and ${key} = r.k`);
    after = batch[batch.length - 1].k;
    if (batch.length < BATCH) return;
  }
}
