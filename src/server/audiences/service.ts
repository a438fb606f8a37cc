import { sql, type SQL } from 'drizzle-orm';
import { SAMPLE_SIZE } from '@shared/api/customers';
import { ITEM_MESSAGES } from '@shared/api/items';
import { checkCriteria } from '@shared/criteria/check';
import type { CriteriaGroup } from '@shared/criteria/tree';
import type { AppContext } from '../context';
import { loadDefinitions, type CustomerDefinitions } from '../customers/definitions';
import { findProfile } from '../customers/profiles-repository';
import { AppError, notFound } from '../http/errors';
import { csvRow } from '../http/csv-output';
import type { SchemaScope } from '../items/scope';
import type { ItemSaveHook } from '../items/save-hooks';
import { requireCustomerData, type WorkspaceAccess } from '../workspaces/access';
import { CUSTOMER_PARTITIONS } from '../db/schema';
import { compileCriteria, customerTables, profileSetTables, profileTables } from './compile';
import * as repo from './repository';

const refused = (node: string, message: string) =>
  new AppError('validation_failed', `data.criteria ${node}: ${message}`, {
    path: 'data.criteria',
    node,
  });

/** A criteria tree after the strict check (400 naming the offending node). */
function checked(defs: CustomerDefinitions, criteria: unknown, selfId?: string) {
  const problem = checkCriteria(criteria, defs.catalog, selfId);
  if (problem) throw refused(problem.node, problem.message);
  return criteria as CriteriaGroup;
}

const partitions = Array.from({ length: CUSTOMER_PARTITIONS }, (_, partition) => partition);

/**
 * The item service's hook: an audience's criteria are checked strictly on every save —
 * depth, operators and values by type, referenced items existing, no audience including itself.
 */
async function checkAudienceCriteria(
  ctx: AppContext,
  scope: SchemaScope,
  data: Record<string, unknown>,
  id: string | undefined,
) {
  if (scope.schema.name !== 'audience' || data.criteria === undefined || data.criteria === null) return;
  const defs = await loadDefinitions(ctx.db, scope.workspace.id);
  const problem = checkCriteria(data.criteria, defs.catalog, id);
  if (problem) throw refused(problem.node, problem.message);
}

const asOfOf = (asOf: string | undefined) => (asOf ? new Date(asOf) : new Date());

/** Matching and total profiles for a tree; any member may ask. */
export async function sizeOf(ctx: AppContext, access: WorkspaceAccess, criteria: unknown, asOf?: string) {
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const tree = checked(defs, criteria);
  const at = asOfOf(asOf);
  return repo.countMatching(
    ctx.db,
    access.workspace.id,
    partitions.map((partition) =>
      compileCriteria(tree, defs.catalog, at, access.workspace.id, undefined, [], customerTables(partition)),
    ),
  );
}

const presentProfile = (row: {
  id: string;
  attributes: Record<string, unknown>;
  updated_at: string | Date;
}) => ({
  id: row.id,
  attributes: row.attributes,
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** Up to 10 matching profiles, for members who may read customer data. */
export async function sampleOf(ctx: AppContext, access: WorkspaceAccess, criteria: unknown, asOf?: string) {
  requireCustomerData(access, 'read');
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const matches = compileCriteria(checked(defs, criteria), defs.catalog, asOfOf(asOf), access.workspace.id);
  return {
    profiles: (await repo.matchingProfiles(ctx.db, access.workspace.id, matches, SAMPLE_SIZE)).map(
      presentProfile,
    ),
  };
}

/**
 * Every audience's size in one statement; an audience whose criteria no longer check has size null.
 * The sizes are also recorded as today's point of each audience's size over time (the dashboard).
 */
export async function audienceSizes(ctx: AppContext, access: WorkspaceAccess) {
  return measureAudienceSizes(ctx, access.workspace.id);
}

async function measureAudienceSizes(ctx: AppContext, workspaceId: string, now = new Date()) {
  const defs = await loadDefinitions(ctx.db, workspaceId);
  const trees = new Map<string, CriteriaGroup>();
  const sizes: Record<string, number | null> = {};
  for (const [id, audience] of defs.catalog.audiences) {
    const criteria = audience.criteria ?? { label: '1', predicate: 'and', children: [] };
    if (checkCriteria(criteria, defs.catalog, id)) sizes[id] = null;
    else trees.set(id, criteria as CriteriaGroup);
  }
  const ids = [...trees.keys()];
  const counted = await repo.countEach(
    ctx.db,
    workspaceId,
    partitions.map((partition) => {
      const tables = customerTables(partition);
      const joins: SQL[] = [];
      const expressions = [...trees].map(
        ([id, tree]) => compileCriteria(tree, defs.catalog, now, workspaceId, id, joins, tables).matches,
      );
      return { expressions, profiles: tables.profiles, joins };
    }),
  );
  ids.forEach((id, index) => (sizes[id] = counted.sizes[index]));
  await repo.recordSizes(ctx.db, workspaceId, sizes, counted.profiles, now);
  return { sizes, profiles: counted.profiles };
}

/**
 * The job worker's daily point (its job runs every 10 minutes): measures and records the audience sizes
 * of the workspaces that have an audience without a size recorded today.
 */
export async function recordDailyAudienceSizes(ctx: AppContext) {
  const now = new Date();
  for (const workspaceId of await repo.workspacesWithoutSizesToday(ctx.db, now, 50)) {
    await measureAudienceSizes(ctx, workspaceId, now);
  }
}

/**
 * The audiences a profile is in now (members who may read customer data): every audience whose criteria check, compiled
 * over that profile's rows alone (`profileTables`) and decided in one statement.
 */
export async function profileAudiences(ctx: AppContext, access: WorkspaceAccess, profileId: string) {
  requireCustomerData(access, 'read');
  const workspaceId = access.workspace.id;
  if (!(await findProfile(ctx.db, workspaceId, profileId))) throw notFound('Profile not found');
  const defs = await loadDefinitions(ctx.db, workspaceId);
  const now = new Date();
  const tables = profileTables(workspaceId, profileId);
  const joins: SQL[] = [];
  const audiences: { id: string; label: string }[] = [];
  const expressions: SQL[] = [];
  for (const [id, audience] of defs.catalog.audiences) {
    const criteria = audience.criteria ?? { label: '1', predicate: 'and', children: [] };
    if (checkCriteria(criteria, defs.catalog, id)) continue;
    audiences.push({ id, label: audience.label });
    expressions.push(
      compileCriteria(criteria as CriteriaGroup, defs.catalog, now, workspaceId, id, joins, tables).matches,
    );
  }
  const holds = await repo.matchEach(ctx.db, workspaceId, { expressions, profiles: tables.profiles, joins });
  return {
    audiences: audiences
      .filter((_, index) => holds[index])
      .sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id)),
  };
}

const CSV_PAGE = 5000;

/**
 * An audience's matching profiles as CSV (header `id` then the workspace's attribute keys), produced
 * page by page (keyset on id, CSV_PAGE rows a statement) so no answer is held whole. Needs the export
 * right over customer data.
 */
export async function audienceProfilesCsv(ctx: AppContext, access: WorkspaceAccess, itemId: string) {
  requireCustomerData(access, 'export');
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const audience = defs.catalog.audiences.get(itemId);
  if (!audience) throw notFound(ITEM_MESSAGES.instanceNotFound);
  const criteria = audience.criteria ?? { label: '1', predicate: 'and', children: [] };
  const matches = compileCriteria(
    checked(defs, criteria, itemId),
    defs.catalog,
    new Date(),
    access.workspace.id,
    itemId,
  );
  const keys = [...defs.attributesByKey.keys()].sort();
  return (async function* () {
    yield csvRow(['id', ...keys]);
    let after: string | undefined;
    for (;;) {
      const page = await repo.matchingProfiles(ctx.db, access.workspace.id, matches, CSV_PAGE, after);
      if (!page.length) return;
      yield page.map((row) => csvRow([row.id, ...keys.map((key) => row.attributes[key])])).join('');
      after = page[page.length - 1].id;
      if (page.length < CSV_PAGE) return;
    }
  })();
}

/** An audience's criteria compiled at `asOf` over the whole profile tables; null when the audience is gone. */
export async function compiledAudience(ctx: AppContext, workspaceId: string, audienceId: string, asOf: Date) {
  const defs = await loadDefinitions(ctx.db, workspaceId);
  const audience = defs.catalog.audiences.get(audienceId);
  if (!audience) return null;
  const criteria = audience.criteria ?? { label: '1', predicate: 'and', children: [] };
  return compileCriteria(checked(defs, criteria, audienceId), defs.catalog, asOf, workspaceId, audienceId);
}

/** The attributes, events and audiences a rule builder offers; any member may read. */
export async function criteriaDefinitions(ctx: AppContext, access: WorkspaceAccess) {
  const { catalog } = await loadDefinitions(ctx.db, access.workspace.id);
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
  return {
    attributes: [...catalog.attributes].map(([id, a]) => ({ id, ...a })).sort(byLabel),
    events: [...catalog.events]
      .map(([id, e]) => ({
        id,
        label: e.label,
        key: e.key,
        properties: [...e.properties].map(([name, type]) => ({ name, type })),
      }))
      .sort(byLabel),
    audiences: [...catalog.audiences].map(([id, a]) => ({ id, label: a.label })).sort(byLabel),
  };
}

/** An audience's criteria are checked against the workspace's definitions before it is stored. */
export const checkAudienceCriteriaOnSave: ItemSaveHook = async (ctx, scope, data, id) => {
  await checkAudienceCriteria(ctx, scope, data, id);
  return data;
};

/**
 * A select of the ids of an audience's members now (among `profileIds` when given), for a statement of
 * the caller's; null when the audience is gone or its criteria do not check.
 */
export function audienceMembersSql(
  defs: CustomerDefinitions,
  workspaceId: string,
  audienceId: string,
  asOf: Date,
  profileIds?: string[],
): SQL | null {
  const audience = defs.catalog.audiences.get(audienceId);
  if (!audience) return null;
  const criteria = audience.criteria ?? { label: '1', predicate: 'and', children: [] };
  if (checkCriteria(criteria, defs.catalog, audienceId)) return null;
  const tables = profileIds ? profileSetTables(workspaceId, profileIds) : customerTables();
  const compiled = compileCriteria(
    criteria as CriteriaGroup,
    defs.catalog,
    asOf,
    workspaceId,
    audienceId,
    [],
    tables,
  );
  return sql`select p.id from ${compiled.profiles} p ${sql.join(compiled.joins, sql` `)}
    where p.workspace_id = ${workspaceId}::text and ${compiled.matches}`;
}
