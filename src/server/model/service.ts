import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  CONTENT_MODEL_MESSAGES,
  type ChangeSetBody,
  type ModelChange,
  type PlanAnswer,
} from '@shared/api/content-model';
import { ModelChangeError } from '@shared/model/apply';
import { diffModels } from '@shared/model/diff';
import { invertOps } from '@shared/model/invert';
import { withReferencesFollowing } from '@shared/model/normalise';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import { schemasChanged, schemasTouched, stepsOf as modelSteps, type ModelSteps } from '@shared/model/pass';
import { trimRoles, type Roles } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { contentModelChanges, contentModels, items, workspaces } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { membershipsChanged } from '../workspaces/repository';
import { queueModelMigration } from './migrate';
import { planImpacts } from './plan';
import { renamedAfter } from './renamed';
import { modelVersionChanged } from '../workspaces/content-model';

/** The model after each operation, or 400 naming the first operation that cannot apply. */
function stepsOf(doc: ContentModelDoc, ops: readonly ModelOp[]): ModelSteps {
  try {
    return modelSteps(doc, ops);
  } catch (err) {
    if (err instanceof ModelChangeError) throw badRequest(err.message);
    throw err;
  }
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
  const impacts = await planImpacts(ctx, access, plan);
  for (const [i, op] of ops.entries()) {
    if (op.op !== 'removeSchema') continue;
    impacts[i].touched = await countItems(ctx.readDb, access.workspace.id, [op.schema]);
    if (impacts[i].touched > 0)
      impacts[i].warning = `${impacts[i].touched} items of this schema are kept and come back on revert`;
  }
  return { baseVersion, ops, impacts };
}

/** How many items the schemas hold. */
async function countItems(db: AppContext['readDb'] | Tx, workspaceId: string, schemas: readonly string[]) {
  if (schemas.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(items)
    .where(and(eq(items.workspaceId, workspaceId), inArray(items.schema, [...schemas])));
  return row?.n ?? 0;
}

interface Applied {
  version: number;
  change: ModelChange | null;
}

/**
 * `POST …/content-model/apply`: the change set applied to the model at once, all or nothing; the items
 * follow in the background (model/migrate.ts), and the change answers its progress meanwhile.
 */
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

/** The schemas a change set names or whose items it may change (the `model.changed` event's). */
const schemasOfChange = (plan: ModelSteps) => [
  ...new Set([
    ...schemasTouched(plan),
    ...plan.ops.flatMap((op) =>
      'schema' in op && typeof op.schema === 'string' && op.op.endsWith('Field') ? [op.schema] : [],
    ),
  ]),
];

async function commitChange(
  ctx: AppContext,
  access: WorkspaceAccess,
  ops: ModelOp[],
  baseVersion: number,
  reverting?: { id: string },
): Promise<Applied> {
  const before = access.model.doc;
  const plan = stepsOf(before, ops);
  const next = plan.steps[plan.steps.length - 1];
  const inverse = invertOps(before, ops);
  const workspaceId = access.workspace.id;
  const id = randomId(20);
  const version = baseVersion + 1;
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
    // The items a migration brings to the new version: those of the schemas whose data or validity it
    // may change (their stage copies follow with them).
    const total = await countItems(tx, workspaceId, schemasChanged(plan, reverting !== undefined));
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
        state: total > 0 ? 'running' : 'done',
        itemsTotal: total,
      })
      .returning();
    if (total > 0) await queueModelMigration(tx, workspaceId);
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: reverting ? 'model.reverted' : 'model.changed',
          targetType: 'content-model',
          targetId: id,
          label: `Content model version ${version}`,
          detail: { baseVersion, version, ops, reverts: reverting?.id ?? null, items: total },
        },
      ],
      events: [
        {
          event: 'model.changed',
          model: { workspaceId, changeId: id, baseVersion, version, schemas: schemasOfChange(plan), ops },
        },
      ],
      changes: [
        membershipsChanged(workspaceId),
        modelVersionChanged(workspaceId),
        { kind: 'items', workspaceId },
        { kind: 'stage', workspaceId },
        { kind: 'live', workspaceId, event: 'model', data: { version } },
      ],
    });
    return row;
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
  return commitChange(ctx, access, row.inverse, baseVersion, { id: row.id });
}

/** `GET …/content-model/export`: the model as one document, for a team's repository or another workspace. */
export function exportModel(access: WorkspaceAccess) {
  requireManager(access);
  return { version: access.model.version, model: access.model.doc };
}
