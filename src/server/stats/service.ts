import { approverRoleLabel, approversOf } from '@shared/publishing/approvals';
import { stageValue } from '@shared/publishing/stages';
import {
  STATS_ACTIVITY_DAYS,
  VISUALISATION_HISTORY,
  VISUALISATION_MESSAGES,
  VISUALISATION_SETTING,
  type Visualisation,
  type WorkspaceStats,
} from '@shared/api/stats';
import type { AppContext } from '../context';
import { enabledSchemas } from '../items/scope';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { notConfigured, providerFailed } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { writerName } from '../journal/marquee-actor';
import { fetchVisualisation, VisualisationError } from '../providers/visualisation';
import { countItems } from '../items/repository';
import { storageBytesOf } from '../files/service';
import { countActiveMembers } from '../workspaces/members-repository';
import * as repo from './repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** Recorded size rows (ordered by audience, then day) as one series per audience. */
function sizeSeries(sizes: { audience_id: string; name: string; day: string; size: number | null }[]) {
  const series = new Map<string, WorkspaceStats['audienceSizes'][number]>();
  for (const row of sizes) {
    let audience = series.get(row.audience_id);
    if (!audience)
      series.set(row.audience_id, (audience = { audienceId: row.audience_id, name: row.name, points: [] }));
    audience.points.push({ day: row.day, size: row.size });
  }
  return [...series.values()];
}

/**
 * The dashboard of a workspace for any active member, over the schemas they see (admin domains only for
 * managers). Every number is one aggregate statement; the statements run side by side.
 */
export async function workspaceStats(
  ctx: AppContext,
  access: WorkspaceAccess,
  now = new Date(),
): Promise<WorkspaceStats> {
  const workspaceId = access.workspace.id;
  const schemas = enabledSchemas(access).map((s) => s.name);
  const roles = access.workspace.roles;
  const duties = schemas.flatMap((schema) =>
    approversOf(roles, schema).map((roleId) => ({ roleId, schema })),
  );
  const held = new Set(access.permissions.roles);
  const days = lastDays(now, STATS_ACTIVITY_DAYS);
  const since = new Date(`${days[0]}T00:00:00.000Z`);
  const { db } = ctx;

  const [bySchema, byStage, byRole, waitingOnMe, publishes, changes, sizes] = await Promise.all([
    repo.countItemsBySchema(db, workspaceId, schemas),
    repo.countPublishedByStage(db, workspaceId, schemas),
    repo.countAwaitingByRole(db, workspaceId, duties),
    repo.countAwaitingAny(
      db,
      workspaceId,
      duties.filter((d) => held.has(d.roleId)),
    ),
    repo.countPublishesByDay(db, workspaceId, schemas, since),
    repo.countVersionsByMember(db, workspaceId, schemas, since),
    schemas.includes('audience') ? repo.listAudienceSizes(db, workspaceId, days[0]) : [],
  ]);

  const counted = new Map(bySchema.map((r) => [r.schema, r.count]));
  const total = bySchema.reduce((sum, r) => sum + r.count, 0);
  const stageCounts = new Map(byStage.map((r) => [r.stage, r]));
  const roleCounts = new Map(byRole.map((r) => [r.role_id, r.count]));
  const dayCounts = new Map(publishes.map((r) => [r.day, r.count]));
  const approverIds = [...new Set(duties.map((d) => d.roleId))];

  return {
    itemsBySchema: schemas.map((schema) => ({ schema, count: counted.get(schema) ?? 0 })),
    publishStatus: access.workspace.basics.stages.map((label) => {
      const stage = stageValue(label);
      const { current = 0, modified = 0 } = stageCounts.get(stage) ?? {};
      return { stage, label, current, modified, notPublished: total - current - modified };
    }),
    approvals: {
      waitingOnMe,
      byRole: approverIds.map((roleId) => ({
        roleId,
        label: approverRoleLabel(roles, roleId),
        count: roleCounts.get(roleId) ?? 0,
      })),
    },
    publishing: days.map((day) => ({ day, count: dayCounts.get(day) ?? 0 })),
    changesByMember: changes.map((r) => ({
      userId: r.user_id,
      name: writerName(r.user_id, r.member_name, r.user_name) ?? '',
      count: r.count,
    })),
    audienceSizes: sizeSeries(sizes),
  };
}

/** The stored visualisation results of a workspace, for any active member. */
export async function getVisualisation(ctx: AppContext, access: WorkspaceAccess): Promise<Visualisation> {
  const history = await repo.listVisualisations(ctx.db, access.workspace.id, VISUALISATION_HISTORY);
  return { configured: !!ctx.config.visualisation.url, latest: history[0] ?? null, history };
}

/**
 * GETs the configured visualisation URL (with its header) and stores the JSON under the timestamp key;
 * workspace managers only. 503 when no URL is configured, 502 when the service fails.
 */
export async function refreshVisualisation(ctx: AppContext, access: WorkspaceAccess): Promise<Visualisation> {
  requireManager(access);
  const { url, header } = ctx.config.visualisation;
  if (!url) throw notConfigured(VISUALISATION_MESSAGES.notConfigured, VISUALISATION_SETTING);
  let result: unknown;
  try {
    result = await fetchVisualisation(url, header);
  } catch (err) {
    if (err instanceof VisualisationError) throw providerFailed(err.message);
    throw err;
  }
  const fetchedAt = new Date();
  await ctx.db.transaction(async (tx) => {
    await repo.insertVisualisation(tx, {
      workspaceId: access.workspace.id,
      key: fetchedAt.toISOString(),
      result,
      fetchedAt,
      fetchedBy: access.user.id,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'visualisation.refreshed',
          targetType: 'workspace',
          targetId: access.workspace.id,
          label: access.workspace.name,
          detail: { key: fetchedAt.toISOString() },
        },
      ],
    });
  });
  return getVisualisation(ctx, access);
}

/** The workspace's plan and what it uses: active members, items and the bytes of its uploads. */
export async function subscriptionOf(ctx: AppContext, access: WorkspaceAccess) {
  const workspaceId = access.workspace.id;
  const [members, items, storageBytes] = await Promise.all([
    countActiveMembers(ctx.db, workspaceId),
    countItems(ctx.db, workspaceId),
    storageBytesOf(ctx, workspaceId),
  ]);
  return { plan: access.workspace.subscription.plan, usage: { members, items, storageBytes } };
}
