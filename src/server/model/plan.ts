/**
 * What a change set would do to the items, per operation: how many it touches and which would then
 * fail validation (the first ids and the count). Counted in SQL where a statement says it exactly
 * (making a field required: the items without a value), else by running the operations over a copy of
 * every item. Nothing is written.
 */
import { sql } from 'drizzle-orm';
import { PLAN_SAMPLE, type OpImpact } from '@shared/api/content-model';
import { describeOp } from '@shared/model/describe';
import {
  changesSince,
  passItem,
  replayItem,
  schemaIn,
  schemasTouched,
  touchesSchema,
  type ModelSteps,
} from '@shared/model/pass';
import type { ModelOp } from '@shared/model/types';
import type { AppContext } from '../context';
import { rows } from '../db/migrate';
import type { WorkspaceAccess } from '../workspaces/access';
import { changesBetween } from '../workspaces/model-changes';
import { itemsOf } from './item-pass';

export async function planImpacts(
  ctx: AppContext,
  access: WorkspaceAccess,
  plan: ModelSteps,
): Promise<OpImpact[]> {
  const impacts: OpImpact[] = plan.ops.map((op) => ({
    op,
    summary: describeOp(op),
    touched: 0,
    failing: { count: 0, ids: [] },
  }));
  for (const schema of schemasTouched(plan)) {
    if (await countedInSql(ctx, access, plan, schema, impacts)) continue;
    await passOverItems(ctx, access, plan, schema, impacts);
  }
  return impacts;
}

/** A stored value that validation counts as missing (isEmptyValue): absent, null, '' or []. */
const isEmptyJson = (key: string) =>
  sql`coalesce(data -> ${key}, 'null'::jsonb) in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;

/**
 * The key a "make this field required" operation makes required, when the items that would fail are
 * exactly those without a value: a field of the schema itself that was optional, shown always (no
 * display condition) and not localised.
 */
function requiredKey(op: ModelOp, schema: string, plan: ModelSteps, i: number): string | undefined {
  if (op.op !== 'updateField' || op.schema !== schema || op.table !== undefined) return undefined;
  const patch = Object.entries(op.patch);
  if (patch.length !== 1 || patch[0][0] !== 'required' || patch[0][1] !== true) return undefined;
  const field = schemaIn(plan.steps[i], schema)?.fields.find((candidate) => candidate.key === op.key);
  if (!field || field.required || field.displayIf || field.localized) return undefined;
  return op.key;
}

/**
 * The impact counted in SQL, when every operation touching the schema makes a field required and no
 * migration of an earlier change is still bringing the schema's items to the current model.
 */
async function countedInSql(
  ctx: AppContext,
  access: WorkspaceAccess,
  plan: ModelSteps,
  schema: string,
  impacts: OpImpact[],
): Promise<boolean> {
  const keys = new Map<number, string>();
  for (const [i, op] of plan.ops.entries()) {
    if (!touchesSchema(op, schema, plan.steps[i])) continue;
    const key = requiredKey(op, schema, plan, i);
    if (key === undefined) return false;
    keys.set(i, key);
  }
  const workspaceId = access.workspace.id;
  const [behind] = rows<{ behind: boolean }>(
    await ctx.readDb.execute(sql`
      select exists (select 1 from content_model_changes
        where workspace_id = ${workspaceId} and state = 'running') as behind`),
  );
  if (behind?.behind) return false;
  for (const [i, key] of keys) {
    const found = rows<{ id: string; n: number }>(
      await ctx.readDb.execute(sql`
        select id, count(*) over ()::int as n from items
        where workspace_id = ${workspaceId} and schema = ${schema} and ${isEmptyJson(key)}
        order by id limit ${PLAN_SAMPLE}`),
    );
    impacts[i].failing = { count: Number(found[0]?.n ?? 0), ids: found.map((row) => row.id) };
  }
  return true;
}

/** Runs the operations over a copy of every item of the schema (in the current model first). */
async function passOverItems(
  ctx: AppContext,
  access: WorkspaceAccess,
  plan: ModelSteps,
  schema: string,
  impacts: OpImpact[],
) {
  const { workspace, model } = access;
  for await (const batch of itemsOf(ctx.readDb, workspace.id, schema)) {
    const from = Math.min(...batch.map((row) => row.modelVersion));
    const changes = await changesBetween(ctx.readDb, workspace.id, from, model.version);
    for (const row of batch) {
      const since = row.modelVersion < model.version ? changesSince(changes, schema, row.modelVersion) : [];
      const data =
        since.length > 0 ? replayItem(since, schema, row.data, workspace.basics, model.doc).data : row.data;
      const outcome = passItem(plan, schema, data, workspace.basics);
      outcome.failingAfter.forEach((paths, i) => {
        if (paths.length === 0) return;
        const failing = impacts[i].failing;
        failing.count++;
        if (failing.ids.length < PLAN_SAMPLE) failing.ids.push(row.id);
      });
      touchedBy(plan, schema, data).forEach((i) => impacts[i].touched++);
    }
  }
}

/** Whether a row of the table field `table` holds a value of its column `key`. */
const rowsHold = (values: Record<string, unknown> | undefined, table: string, key: string) => {
  const rows = values?.[table];
  return Array.isArray(rows) && rows.some((row) => row?.[key] !== undefined && row[key] !== null);
};

/** The operations that hold a value of this item to move, convert or take out. */
function touchedBy(plan: ModelSteps, schema: string, data: Record<string, unknown>): number[] {
  const found: number[] = [];
  plan.ops.forEach((op, i) => {
    if (!('schema' in op) || op.schema !== schema) return;
    const key = op.op === 'renameField' ? op.from : 'key' in op ? op.key : undefined;
    if (key === undefined || (op.op !== 'renameField' && op.op !== 'retypeField' && op.op !== 'removeField'))
      return;
    const locales = data._locales as Record<string, Record<string, unknown>> | undefined;
    const holds =
      op.table !== undefined
        ? [data, ...Object.values(locales ?? {})].some((values) => rowsHold(values, op.table!, key))
        : (data[key] !== undefined && data[key] !== null) ||
          Object.values(locales ?? {}).some((values) => values?.[key] !== undefined);
    if (holds) found.push(i);
  });
  return found;
}
