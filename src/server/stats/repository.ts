import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { visualisationResults } from '../db/schema';

/**
 * Aggregate queries of the dashboard: each one statement that counts in PostgreSQL (group by over the
 * workspace's indexes), never a loop over items.
 */
const list = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

export async function countItemsBySchema(db: Db, workspaceId: string, schemas: readonly string[]) {
  if (schemas.length === 0) return [];
  const result = await db.execute(sql`
    select schema, count(*)::int as count from items
    where workspace_id = ${workspaceId} and schema = any(${list(schemas)})
    group by schema`);
  return rows<{ schema: string; count: number }>(result);
}

/** Per stage: copies that are current, copies that are older than the item (modified). */
export async function countPublishedByStage(db: Db, workspaceId: string, schemas: readonly string[]) {
  if (schemas.length === 0) return [];
  const result = await db.execute(sql`
    select stage,
           count(*) filter (where version >= item_version)::int as current,
           count(*) filter (where version < item_version)::int as modified
    from published
    where workspace_id = ${workspaceId} and schema = any(${list(schemas)})
    group by stage`);
  return rows<{ stage: string; current: number; modified: number }>(result);
}

/** Items awaiting each role's approval: schemas the role must approve, current version not approved by it. */
export async function countAwaitingByRole(
  db: Db,
  workspaceId: string,
  duties: readonly { roleId: string; schema: string }[],
) {
  if (duties.length === 0) return [];
  const pairs = sql.join(
    duties.map((d) => sql`(${d.roleId}::text, ${d.schema}::text)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select d.role_id, count(*)::int as count
    from (values ${pairs}) as d(role_id, schema)
    join items i on i.workspace_id = ${workspaceId} and i.schema = d.schema
    where not (d.role_id = any(i.approved_roles))
    group by d.role_id`);
  return rows<{ role_id: string; count: number }>(result);
}

/** Items whose current version awaits at least one of the given duties (each item counted once). */
export async function countAwaitingAny(
  db: Db,
  workspaceId: string,
  duties: readonly { roleId: string; schema: string }[],
) {
  if (duties.length === 0) return 0;
  const pairs = sql.join(
    duties.map((d) => sql`(${d.roleId}::text, ${d.schema}::text)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select count(*)::int as count from items i
    where i.workspace_id = ${workspaceId}
      and exists (select 1 from (values ${pairs}) as d(role_id, schema)
                  where d.schema = i.schema and not (d.role_id = any(i.approved_roles)))`);
  return rows<{ count: number }>(result)[0]?.count ?? 0;
}

export async function countPublishesByDay(
  db: Db,
  workspaceId: string,
  schemas: readonly string[],
  since: Date,
) {
  if (schemas.length === 0) return [];
  const result = await db.execute(sql`
    select to_char(published_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as count
    from published
    where workspace_id = ${workspaceId} and schema = any(${list(schemas)})
      and published_at >= ${since.toISOString()}::timestamptz
    group by 1`);
  return rows<{ day: string; count: number }>(result);
}

export async function countVersionsByMember(
  db: Db,
  workspaceId: string,
  schemas: readonly string[],
  since: Date,
) {
  if (schemas.length === 0) return [];
  const result = await db.execute(sql`
    select v.by as user_id, m.display_name as member_name, u.name as user_name, count(*)::int as count
    from item_versions v
      left join members m on m.workspace_id = v.workspace_id and m.user_id = v.by
      left join users u on u.id = v.by
    where v.workspace_id = ${workspaceId} and v.schema = any(${list(schemas)})
      and v.at >= ${since.toISOString()}::timestamptz
    group by v.by, m.display_name, u.name
    order by count desc, coalesce(m.display_name, u.name, v.by)
    limit 20`);
  return rows<{ user_id: string; member_name: string | null; user_name: string | null; count: number }>(
    result,
  );
}

/** Recorded audience sizes since `since` of the audiences that still exist, oldest first. */
export async function listAudienceSizes(db: Db, workspaceId: string, since: string) {
  const result = await db.execute(sql`
    select s.audience_id, coalesce(i.data->>'name', '') as name, to_char(s.day, 'YYYY-MM-DD') as day, s.size
    from audience_sizes s
    join items i on i.workspace_id = s.workspace_id and i.schema = 'audience' and i.id = s.audience_id
    where s.workspace_id = ${workspaceId} and s.day >= ${since}::date
    order by name, s.audience_id, s.day`);
  return rows<{ audience_id: string; name: string; day: string; size: number | null }>(result);
}

export async function insertVisualisation(
  db: Db | Tx,
  row: { workspaceId: string; key: string; result: unknown; fetchedAt: Date; fetchedBy: string },
) {
  await db.insert(visualisationResults).values(row).onConflictDoNothing();
}

export async function listVisualisations(db: Db, workspaceId: string, limit: number) {
  return db
    .select({
      key: visualisationResults.key,
      result: visualisationResults.result,
      fetchedBy: visualisationResults.fetchedBy,
    })
    .from(visualisationResults)
    .where(eq(visualisationResults.workspaceId, workspaceId))
    .orderBy(desc(visualisationResults.key))
    .limit(limit);
}
