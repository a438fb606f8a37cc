import { sql } from 'drizzle-orm';
import { copyFrom, copyRows, copyValue, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';

/** The workspace's customer-profile-attribute, behavioral-event and audience items: what criteria and imports refer to. */
export interface DefinitionRow {
  schema: 'customer-profile-attribute' | 'behavioral-event' | 'audience';
  id: string;
  data: Record<string, unknown>;
}

export async function listDefinitions(db: Db, workspaceId: string): Promise<DefinitionRow[]> {
  return rows<DefinitionRow>(
    await db.execute(sql`
      select schema, id, data from items
      where workspace_id = ${workspaceId}
        and schema in ('customer-profile-attribute', 'behavioral-event', 'audience')`),
  );
}

/**
 * Inserts or updates profiles: given attributes replace those keys, others stay. The rows are copied
 * into a staging table (emptied at commit) and merged by one statement; ids must be distinct.
 */
export async function upsertProfiles(
  db: Db | Tx,
  workspaceId: string,
  profiles: [id: string, attributes: Record<string, unknown>][],
) {
  if (!profiles.length) return;
  // In a transaction of its own (a savepoint inside the caller's): one connection, and the staging
  // rows are moved out by the merge.
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temp table if not exists profiles_import (id text not null, attributes jsonb not null)
      on commit delete rows`);
    await copyRows(
      tx,
      'profiles_import',
      ['id', 'attributes'],
      profiles.map(([id, attributes]) => [id, JSON.stringify(attributes)]),
    );
    await tx.execute(sql`
      with staged as (delete from profiles_import returning id, attributes)
      insert into customer_profiles (workspace_id, id, attributes, updated_at)
      select ${workspaceId}, id, attributes, now() from staged
      on conflict (workspace_id, id) do update
        set attributes = customer_profiles.attributes || excluded.attributes, updated_at = excluded.updated_at`);
  });
}

/** An event to write; `id` is the source's own id of the event, when it has one. */
export type EventTuple = [
  profileId: string,
  event: string,
  at: string,
  properties: Record<string, unknown>,
  id?: string,
];

/** Events grouped by their event key (an import groups them as it reads them). */
export type EventsByKey = Map<string, EventTuple[]>;

function byEventKey(events: EventTuple[]): EventsByKey {
  const byKey: EventsByKey = new Map();
  for (const event of events) {
    const group = byKey.get(event[1]);
    if (group) group.push(event);
    else byKey.set(event[1], [event]);
  }
  return byKey;
}

const byProfile = (a: EventTuple, b: EventTuple) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The columns the COPY text of `eventsCopyText` fills. */
export const EVENT_COPY_COLUMNS = ['workspace_id', 'profile_id', 'event', 'at', 'properties'];

/**
 * The COPY text of events, key by key. With `runs`, each key's events are sorted by profile and each
 * profile's run (its number of events of that key) is reported. Written here rather than by copyRows:
 * no row arrays, and the workspace and the event key escaped once (the server's CPU and PostgreSQL's
 * share two cores during an import).
 */
export function eventsCopyText(
  workspaceId: string,
  byKey: EventsByKey,
  runs?: (event: string, profileId: string, count: number) => void,
) {
  const prefix = `${copyValue(workspaceId)}\t`;
  let text = '';
  for (const key of [...byKey.keys()].sort()) {
    const event = `\t${copyValue(key)}\t`;
    const group = runs ? byKey.get(key)!.sort(byProfile) : byKey.get(key)!;
    let run = 0;
    for (let i = 0; i < group.length; i++) {
      const [profileId, , at, properties] = group[i];
      text += `${prefix}${copyValue(profileId)}${event}${at}\t${copyValue(JSON.stringify(properties))}\n`;
      run += 1;
      if (runs && (i + 1 === group.length || group[i + 1][0] !== profileId)) {
        runs(key, profileId, run);
        run = 0;
      }
    }
  }
  return text;
}

/**
 * Writes events into the live partitions and, in the same transaction, adds them to each profile's
 * count per event key (`customer_event_counts`, which the audience compiler reads for all-time COUNT
 * rules). The events are copied in index order, event key then profile, so a chunk's index entries land
 * on neighbouring pages; a profile's events are then side by side, so its count is their run. The
 * counts are merged by one statement in that order, so concurrent imports lock the same rows in the
 * same order. (A large import writes most of its events into segments instead: `segments.ts`.)
 */
export async function insertEvents(db: Db | Tx, workspaceId: string, events: EventsByKey | EventTuple[]) {
  const byKey = Array.isArray(events) ? byEventKey(events) : events;
  if (!byKey.size) return;
  const counts: { event: string; profileId: string; count: number }[] = [];
  const text = eventsCopyText(workspaceId, byKey, (event, profileId, count) =>
    counts.push({ event, profileId, count }),
  );
  // In a transaction of its own (a savepoint inside the caller's): live tracking calls this outside one.
  await db.transaction(async (tx) => {
    await copyFrom(tx, 'customer_events', EVENT_COPY_COLUMNS, text);
    await tx.execute(sql`
      insert into customer_event_counts (workspace_id, event, profile_id, count)
      select ${workspaceId}::text, r.event, r."profileId", r.count
      from json_to_recordset(${JSON.stringify(counts)}::json) as r(event text, "profileId" text, count bigint)
      order by r.event, r."profileId"
      on conflict (workspace_id, event, profile_id) do update
        set count = customer_event_counts.count + excluded.count`);
  });
}

export interface ProfileRow {
  id: string;
  attributes: Record<string, unknown>;
  updated_at: string | Date;
}

/** A keyset page of profiles ordered by id, optionally those whose id starts with `search`. */
export async function listProfiles(
  db: Db,
  workspaceId: string,
  options: { search?: string; after?: string; limit: number },
) {
  const prefix = options.search ? options.search.replace(/[\\%_]/g, (c) => `\\${c}`) + '%' : undefined;
  return rows<ProfileRow>(
    await db.execute(sql`
      select id, attributes, updated_at from customer_profiles
      where workspace_id = ${workspaceId}
        ${prefix ? sql`and id like ${prefix}` : sql``}
        ${options.after !== undefined ? sql`and id > ${options.after}` : sql``}
      order by id
      limit ${options.limit}`),
  );
}

export async function findProfile(db: Db, workspaceId: string, id: string) {
  const [row] = rows<ProfileRow>(
    await db.execute(sql`
      select id, attributes, updated_at from customer_profiles where workspace_id = ${workspaceId} and id = ${id}`),
  );
  return row;
}
