import { and, desc, eq, sql } from 'drizzle-orm';
import {
  CONTENT_MODEL_MESSAGES,
  PLAN_SAMPLE,
  type ChangeSetBody,
  type ModelChange,
  type OpImpact,
  type PlanAnswer,
} from '@shared/api/content-model';
import { applyOp, applyOps, ModelChangeError } from '@shared/model/apply';
import { diffModels } from '@shared/model/diff';
import { invertOps } from '@shared/model/invert';
import { withReferencesFollowing } from '@shared/model/normalise';
import { describeOp } from '@shared/model/describe';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import { trimRoles, type Roles } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { contentModelChanges, contentModelKept, contentModels, items, workspaces } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { membershipsChanged } from '../workspaces/repository';
import {
  itemsOf,
  passCopiesAndHistory,
  passItem,
  schemasTouched,
  writeItems,
  type ModelSteps,
} from './item-pass';
import { renamedAfter } from './renamed';
import { modelVersionChanged } from '../workspaces/content-model';

/** The model after each operation, or 400 naming the first operation that cannot apply. */
function stepsOf(doc: ContentModelDoc, ops: readonly ModelOp[]): ModelSteps {
  const steps = [doc];
  try {
    // A change set may pass through unsound models on its way: only the last one is checked.
    ops.slice(0, -1).forEach((op, i) => {
      const step = structuredClone(steps[i]);
      applyOp(step, op, i);
      steps.push(step);
    });
    steps.push(applyOps(doc, ops));
  } catch (err) {
    if (err instanceof ModelChangeError) throw badRequest(err.message);
    throw err;
  }
  return { ops, steps };
}

/** A change set's operations and base version: as sent, or computed from a model document. */
function opsOf(access: WorkspaceAccess, body: ChangeSetBody): { ops: ModelOp[]; baseVersion: number } {
  const current = access.model;
  if ('ops' in body)
    return { ops: withReferencesFollowing(current.doc, body.ops), baseVersion: body.baseVersion };
  return { ops: diffModels(current.doc, body.document), baseVersion: body.baseVersion ?? current.version };
}

function requireCurrent(access: WorkspaceAccess, baseVersion: number) {
  if (baseVersion !== access.model.version) throw conflict(CONTENT_MODEL_MESSAGES.stale);
}

/**
 * `POST …/content-model/plan`: what the change set would do, per operation: how many items it touches and
 * which would then fail validation (the first ids and the count), with nothing written.
 */
export async function planChangeSet(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: ChangeSetBody,
): Promise<PlanAnswer> {
  requireManager(access);
  const { ops, baseVersion } = opsOf(access, body);
  requireCurrent(access, baseVersion);
  const plan = stepsOf(access.model.doc, ops);
  const impacts: OpImpact[] = ops.map((op) => ({
    op,
    summary: describeOp(op),
    touched: 0,
    failing: { count: 0, ids: [] },
  }));
  for (const schema of schemasTouched(plan)) {
    for await (const batch of itemsOf(ctx.readDb, access.workspace.id, schema)) {
      for (const row of batch) {
        const outcome = passItem(plan, schema, row.data, access.workspace.basics);
        outcome.failingAfter.forEach((paths, i) => {
          if (paths.length === 0) return;
          const failing = impacts[i].failing;
          failing.count++;
          if (failing.ids.length < PLAN_SAMPLE) failing.ids.push(row.id);
        });
        touchedBy(plan, schema, row.data).forEach((i) => impacts[i].touched++);
      }
    }
  }
  for (const [i, op] of ops.entries()) {
    if (op.op !== 'removeSchema') continue;
    impacts[i].touched = await countItems(ctx, access.workspace.id, op.schema);
    if (impacts[i].touched > 0)
      impacts[i].warning = `${impacts[i].touched} items of this schema are kept and come back on revert`;
  }
  return { baseVersion, ops, impacts };
}

async function countItems(ctx: AppContext, workspaceId: string, schema: string) {
  const [row] = await ctx.readDb
    .select({ n: sql<number>`count(*)::int` })
    .from(items)
    .where(and(eq(items.workspaceId, workspaceId), eq(items.schema, schema)));
  return row?.n ?? 0;
}

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
      (data[key] !== undefined && data[key] !== null) ||
      Object.values(locales ?? {}).some((values) => values?.[key] !== undefined);
    if (holds) found.push(i);
  });
  return found;
}

interface Applied {
  version: number;
  change: ModelChange | null;
}

/** `POST …/content-model/apply`: the change set applied, model and items in one transaction. */
export function applyChangeSet(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: ChangeSetBody,
): Promise<Applied> {
  requireManager(access);
  const { ops, baseVersion } = opsOf(access, body);
  requireCurrent(access, baseVersion);
  if (ops.length === 0) return Promise.resolve({ version: access.model.version, change: null });
  return commitChange(ctx, access, ops, baseVersion);
}

async function commitChange(
  ctx: AppContext,
  access: WorkspaceAccess,
  ops: ModelOp[],
  baseVersion: number,
  reverting?: { id: string; ops: ModelOp[] },
): Promise<Applied> {
  const before = access.model.doc;
  const plan = stepsOf(before, ops);
  const next = plan.steps[plan.steps.length - 1];
  const inverse = invertOps(before, ops);
  const workspaceId = access.workspace.id;
  const id = randomId(20);
  const version = baseVersion + 1;
  const kept = reverting ? await keptOf(ctx, reverting.id) : undefined;
  const change = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ modelVersion: workspaces.modelVersion, roles: workspaces.roles })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .for('update');
    if (!locked || locked.modelVersion !== baseVersion) throw conflict(CONTENT_MODEL_MESSAGES.stale);
    const renamed = renamedAfter(access.model.renamed, ops, next, new Date());
    await tx.insert(contentModels).values({ workspaceId, version, doc: next, renamed });
    const schemaNames = next.domains.flatMap((domain) => domain.schemas.map((schema) => schema.name));
    await tx
      .update(workspaces)
      .set({
        modelVersion: version,
        roles: rolesFollowingModel(locked.roles, access.model.schemaNames(), schemaNames),
        version: sql`${workspaces.version} + 1`,
      })
      .where(eq(workspaces.id, workspaceId));
    const [row] = await tx
      .insert(contentModelChanges)
      .values({
        id,
        workspaceId,
        baseVersion,
        version,
        ops,
        inverse,
        reverts: reverting?.id ?? null,
        byId: access.user.id,
        byName: access.member.displayName,
        state: 'running',
      })
      .returning();
    const transformed = await transformItems(tx, access, plan, id, kept && { kept, undoing: reverting!.ops });
    const [done] = await tx
      .update(contentModelChanges)
      .set({
        state: 'done',
        itemsTotal: transformed.total,
        itemsDone: transformed.total,
        transformed: transformed.sample,
      })
      .where(eq(contentModelChanges.id, row.id))
      .returning();
    const schemas = schemasTouched(plan);
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: reverting ? 'model.reverted' : 'model.changed',
          targetType: 'content-model',
          targetId: id,
          label: `Content model version ${version}`,
          detail: { baseVersion, version, ops, reverts: reverting?.id ?? null, items: transformed.total },
        },
      ],
      events: [
        { event: 'model.changed', model: { workspaceId, changeId: id, baseVersion, version, schemas, ops } },
      ],
      changes: [
        membershipsChanged(workspaceId),
        modelVersionChanged(workspaceId),
        { kind: 'items', workspaceId },
        { kind: 'stage', workspaceId },
        { kind: 'live', workspaceId, event: 'model', data: { version } },
      ],
    });
    return done;
  });
  return { version, change: changeDto(change, true) };
}

/**
 * The roles once the model has these schemas: rights on removed schemas trimmed (as a workspace save
 * trims them), and a role that may edit (or publish) every schema, as the Admin role does, may also
 * edit (or publish) the new ones.
 */
function rolesFollowingModel(roles: Roles, before: readonly string[], after: readonly string[]): Roles {
  const added = after.filter((name) => !before.includes(name));
  const holdsAll = (list: readonly string[]) => before.every((name) => list.includes(name));
  const grown = Object.fromEntries(
    Object.entries(roles).map(([id, role]) => [
      id,
      {
        ...role,
        canEdit: holdsAll(role.canEdit) ? [...role.canEdit, ...added] : role.canEdit,
        canPublish: holdsAll(role.canPublish) ? [...role.canPublish, ...added] : role.canPublish,
      },
    ]),
  );
  return trimRoles(grown, after);
}

/** The values the reverted change kept, per item. */
async function keptOf(ctx: AppContext, changeId: string) {
  const found = await ctx.db.select().from(contentModelKept).where(eq(contentModelKept.changeId, changeId));
  return new Map(found.map((row) => [`${row.schema}\t${row.itemId}`, row.kept]));
}

/**
 * Runs the change set over every item it can change or make incomplete, in batches, storing what it
 * replaced or removed; then over their stage copies and, for renames, their history.
 */
async function transformItems(
  tx: Tx,
  access: WorkspaceAccess,
  plan: ModelSteps,
  changeId: string,
  revert?: { kept: Map<string, Record<string, unknown>>; undoing: ModelOp[] },
) {
  const workspaceId = access.workspace.id;
  const sample: ModelChange['transformed'] = [];
  let total = 0;
  for (const schema of schemasTouched(plan)) {
    for await (const batch of itemsOf(tx, workspaceId, schema, true)) {
      const written: { id: string; data: Record<string, unknown>; hasErrors: boolean }[] = [];
      const keptRows: (typeof contentModelKept.$inferInsert)[] = [];
      for (const row of batch) {
        const restore = revert && {
          reverted: revert.undoing,
          kept: revert.kept.get(`${schema}\t${row.id}`) ?? {},
        };
        const outcome = passItem(plan, schema, row.data, access.workspace.basics, restore);
        if (!outcome.changed && outcome.hasErrors === row.hasErrors) continue;
        written.push({ id: row.id, data: outcome.data, hasErrors: outcome.hasErrors });
        if (Object.keys(outcome.kept).length > 0)
          keptRows.push({ changeId, schema, itemId: row.id, kept: outcome.kept });
        if (outcome.changed) total++;
        if ((outcome.changed || outcome.failed.length > 0) && sample.length < PLAN_SAMPLE)
          sample.push({ schema, id: row.id, ...(outcome.failed.length ? { failed: outcome.failed } : {}) });
      }
      await writeItems(tx, workspaceId, schema, written);
      if (keptRows.length > 0) await tx.insert(contentModelKept).values(keptRows);
    }
    await passCopiesAndHistory(tx, plan, workspaceId, schema);
  }
  return { total, sample };
}

function changeDto(row: typeof contentModelChanges.$inferSelect, revertible: boolean): ModelChange {
  return {
    id: row.id,
    baseVersion: row.baseVersion,
    version: row.version,
    ops: row.ops,
    reverts: row.reverts,
    by: { id: row.byId, name: row.byName },
    at: row.at.toISOString(),
    state: row.state,
    progress: { total: row.itemsTotal, done: row.itemsDone },
    transformed: row.transformed,
    revertible,
  };
}

/** `GET …/content-model/changes`: every applied change set, newest first (managers). */
export async function listChanges(ctx: AppContext, access: WorkspaceAccess) {
  requireManager(access);
  const found = await ctx.db
    .select()
    .from(contentModelChanges)
    .where(eq(contentModelChanges.workspaceId, access.workspace.id))
    .orderBy(desc(contentModelChanges.version));
  const reverted = new Set(found.map((row) => row.reverts).filter(Boolean));
  return {
    changes: found.map((row) => {
      const { transformed: _, ...change } = changeDto(row, !reverted.has(row.id));
      return change;
    }),
  };
}

async function findChange(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const [row] = await ctx.db
    .select()
    .from(contentModelChanges)
    .where(and(eq(contentModelChanges.workspaceId, access.workspace.id), eq(contentModelChanges.id, id)));
  if (!row) throw notFound(CONTENT_MODEL_MESSAGES.changeNotFound);
  return row;
}

async function isReverted(ctx: AppContext, workspaceId: string, id: string) {
  const [found] = await ctx.db
    .select({ id: contentModelChanges.id })
    .from(contentModelChanges)
    .where(and(eq(contentModelChanges.workspaceId, workspaceId), eq(contentModelChanges.reverts, id)))
    .limit(1);
  return !!found;
}

/** `GET …/content-model/changes/{id}`: one change set, its progress and the items it transformed. */
export async function getChange(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const row = await findChange(ctx, access, id);
  return changeDto(row, !(await isReverted(ctx, access.workspace.id, id)));
}

/**
 * `POST …/content-model/changes/{id}/revert`: applies the change's inverse as a new change set on the
 * current model (409 when a later change makes it no longer apply cleanly: 400 names the operation).
 */
export async function revertChange(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  baseVersion: number,
) {
  requireManager(access);
  requireCurrent(access, baseVersion);
  const row = await findChange(ctx, access, id);
  if (await isReverted(ctx, access.workspace.id, id)) throw conflict(CONTENT_MODEL_MESSAGES.alreadyReverted);
  return commitChange(ctx, access, row.inverse, baseVersion, { id: row.id, ops: row.ops });
}

/** `GET …/content-model/export`: the model as one document, for a team's repository or another workspace. */
export function exportModel(access: WorkspaceAccess) {
  requireManager(access);
  return { version: access.model.version, model: access.model.doc };
}
