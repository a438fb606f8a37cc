import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { writeKeys } from '../db/schema';

export type WriteKeyRow = typeof writeKeys.$inferSelect;
type NewWriteKey = typeof writeKeys.$inferInsert;

export async function insertWriteKey(tx: Tx, row: NewWriteKey) {
  await tx.insert(writeKeys).values(row);
}

export async function listWriteKeys(db: Db, workspaceId: string): Promise<WriteKeyRow[]> {
  return db
    .select()
    .from(writeKeys)
    .where(eq(writeKeys.workspaceId, workspaceId))
    .orderBy(asc(writeKeys.createdAt), asc(writeKeys.id));
}

/** Changes a key's settings; answers the changed row (undefined when it did not exist). */
export async function updateWriteKey(
  tx: Tx,
  workspaceId: string,
  id: string,
  values: Pick<NewWriteKey, 'strict'>,
) {
  const [row] = await tx
    .update(writeKeys)
    .set(values)
    .where(and(eq(writeKeys.workspaceId, workspaceId), eq(writeKeys.id, id)))
    .returning();
  return row;
}

/** Deletes a key; answers the deleted row (undefined when it did not exist). */
export async function deleteWriteKey(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .delete(writeKeys)
    .where(and(eq(writeKeys.workspaceId, workspaceId), eq(writeKeys.id, id)))
    .returning();
  return row;
}

export async function findWriteKeyByHash(db: Db, keyHash: string): Promise<WriteKeyRow | undefined> {
  const [row] = await db.select().from(writeKeys).where(eq(writeKeys.keyHash, keyHash));
  return row;
}

/** Notes a use of the key, writing at most once a minute per key. */
export async function touchWriteKey(db: Db, workspaceId: string, id: string, at: Date) {
  const minuteAgo = new Date(at.getTime() - 60_000);
  await db
    .update(writeKeys)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(writeKeys.workspaceId, workspaceId),
        eq(writeKeys.id, id),
        or(isNull(writeKeys.lastUsedAt), lt(writeKeys.lastUsedAt, minuteAgo)),
      ),
    );
}

/**
 * Creates the profiles that events were sent for and that do not exist yet (no attributes), so the
 * events count in audiences at once; existing profiles are left as they are. Ids in order, so
 * concurrent requests lock them in the same order.
 */
export async function ensureProfiles(tx: Tx, workspaceId: string, ids: string[]) {
  if (!ids.length) return;
  await tx.execute(sql`
    insert into customer_profiles (workspace_id, id, attributes, updated_at)
    select ${workspaceId}::text, id, '{}'::jsonb, now()
    from unnest(${sql.param([...ids].sort())}::text[]) as ids(id)
    order by id
    on conflict (workspace_id, id) do nothing`);
}

/**
 * The stored values of the given attribute keys of the given profiles (those that have any), with the
 * profiles locked until the transaction ends, in id order as `ensureProfiles` locks them.
 */
export async function lockAttributes(tx: Tx, workspaceId: string, ids: string[], keys: readonly string[]) {
  const found = rows<{ id: string; held: Record<string, unknown> | null }>(
    await tx.execute(sql`
      select id, (select jsonb_object_agg(key, value) from jsonb_each(attributes)
                  where key = any(${sql.param([...keys])}::text[])) as held
      from customer_profiles
      where workspace_id = ${workspaceId} and id = any(${sql.param([...ids].sort())}::text[])
      order by id
      for update`),
  );
  return new Map(found.map((row) => [row.id, row.held ?? {}]));
}

/**
 * Moves an anonymous visitor's events, of the given event keys, to a profile: each key's count moves
 * from the visitor's row of `customer_event_counts` to the profile's (added to what it had), then the
 * events themselves. Both are read by their indexes, one probe per event key. Answers how many events moved.
 */
export async function moveEvents(
  tx: Tx,
  workspaceId: string,
  from: string,
  to: string,
  eventKeys: string[],
): Promise<number> {
  if (!eventKeys.length) return 0;
  const keys = [...eventKeys].sort();
  // An event the profile already has (the same source id, sent again after the identify) stays once:
  // the visitor's copy goes, and its count with it, before the rest moves.
  await tx.execute(sql`
    with gone as (
      delete from customer_events v
      where v.workspace_id = ${workspaceId}::text and v.event = any(${sql.param(keys)}::text[])
        and v.profile_id = ${from}::text
        and exists (select 1 from customer_events k
                    where k.ident = v.ident and k.profile_id = ${to}::text and k.workspace_id = v.workspace_id)
      returning v.event
    )
    update customer_event_counts c set count = c.count - g.n
    from (select event, count(*) as n from gone group by event) g
    where c.workspace_id = ${workspaceId}::text and c.event = g.event and c.profile_id = ${from}::text`);
  const moved = rows<{ event: string }>(
    await tx.execute(sql`
      with moved as (
        delete from customer_event_counts
        where workspace_id = ${workspaceId}::text and event = any(${sql.param(keys)}::text[]) and profile_id = ${from}::text
        returning event, count
      )
      insert into customer_event_counts (workspace_id, event, profile_id, count)
      select ${workspaceId}::text, event, ${to}::text, count from moved order by event
      on conflict (workspace_id, event, profile_id) do update
        set count = customer_event_counts.count + excluded.count
      returning event`),
  ).map((row) => row.event);
  if (!moved.length) return 0;
  const [row] = rows<{ moved: number | string }>(
    await tx.execute(sql`
      with moved as (
        update customer_events set profile_id = ${to}::text
        where workspace_id = ${workspaceId}::text and event = any(${sql.param(moved)}::text[]) and profile_id = ${from}::text
        returning 1
      )
      select count(*) as moved from moved`),
  );
  return Number(row.moved);
}
