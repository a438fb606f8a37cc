import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';

export interface SuppressionRow {
  id: string;
  profile_id: string | null;
  email: string | null;
  reason: string;
  note: string | null;
  created_at: string | Date;
  created_by_name: string | null;
}

export interface NewSuppression {
  id: string;
  profileId: string | null;
  email: string | null;
  reason: string;
  note: string | null;
  createdBy: string | null;
  createdByName: string | null;
}

/**
 * Adds an entry unless its profile id or email address is listed already: answers the new entry, or
 * undefined when one of them was (nothing is written then).
 */
export async function insertSuppression(tx: Tx, workspaceId: string, entry: NewSuppression) {
  const [row] = rows<SuppressionRow>(
    await tx.execute(sql`
      insert into customer_suppressions
        (workspace_id, id, profile_id, email, reason, note, created_by, created_by_name)
      select ${workspaceId}::text, ${entry.id}::text, ${entry.profileId}::text, ${entry.email}::text,
        ${entry.reason}::text, ${entry.note}::text, ${entry.createdBy}::text, ${entry.createdByName}::text
      where not exists (
        select 1 from customer_suppressions s where s.workspace_id = ${workspaceId}::text
          and (s.profile_id = ${entry.profileId}::text or s.email = ${entry.email}::text))
      on conflict do nothing
      returning id, profile_id, email, reason, note, created_at, created_by_name`),
  );
  return row;
}

export async function deleteSuppression(tx: Tx, workspaceId: string, id: string) {
  return rows<SuppressionRow>(
    await tx.execute(sql`
      delete from customer_suppressions where workspace_id = ${workspaceId}::text and id = ${id}::text
      returning id, profile_id, email, reason, note, created_at, created_by_name`),
  )[0];
}

/** A keyset page, newest first; `search` matches the start of a profile id or an email address. */
export async function listSuppressions(
  db: Db,
  workspaceId: string,
  options: { search?: string; after?: { at: string; id: string }; limit: number },
) {
  const prefix = options.search
    ? options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%'
    : undefined;
  return rows<SuppressionRow & { cursor_at: string }>(
    await db.execute(sql`
      select id, profile_id, email, reason, note, created_at, created_by_name,
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
      from customer_suppressions
      where workspace_id = ${workspaceId}::text
        ${prefix ? sql`and (lower(profile_id) like ${prefix}::text or email like ${prefix}::text)` : sql``}
        ${
          options.after
            ? sql`and (created_at, id) < (${options.after.at}::timestamptz, ${options.after.id}::text)`
            : sql``
        }
      order by created_at desc, id desc
      limit ${options.limit}::int`),
  );
}

/** The ids among `profileIds` that are on the workspace's suppression list. */
export async function suppressedAmong(db: Db | Tx, workspaceId: string, profileIds: string[]) {
  if (!profileIds.length) return new Set<string>();
  return new Set(
    rows<{ profile_id: string }>(
      await db.execute(sql`
        select profile_id from customer_suppressions
        where workspace_id = ${workspaceId}::text
          and profile_id in (select jsonb_array_elements_text(${JSON.stringify(profileIds)}::jsonb))`),
    ).map((row) => row.profile_id),
  );
}

/** Every suppressed profile id of a workspace (an import checks its rows against them as it reads). */
export async function suppressedProfileIds(db: Db, workspaceId: string) {
  return new Set(
    rows<{ profile_id: string }>(
      await db.execute(sql`
        select profile_id from customer_suppressions
        where workspace_id = ${workspaceId}::text and profile_id is not null`),
    ).map((row) => row.profile_id),
  );
}
