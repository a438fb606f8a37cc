import { sql, type SQLWrapper } from 'drizzle-orm';
import { RECIPIENT_DEFAULTS } from '@shared/api/senders';
import { copyFrom, copyRows, copyValue, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';
import { modelOfWorkspace } from '../workspaces/content-model';
import { replayedCopies } from '../workspaces/model-changes';
import { noticeJourneyEvents, noticeProfileChanges } from '../journal/journey-notices';
import { eventIdentity, jsonbText } from './event-identity';

/** The workspace's customer-profile-attribute, behavioral-event and audience items: what criteria and imports refer to. */
export interface DefinitionRow {
  schema: 'customer-profile-attribute' | 'behavioral-event' | 'audience';
  id: string;
  data: Record<string, unknown>;
}

/** Those items in the workspace's current model (a model change's migration may not have reached them). */
export async function listDefinitions(db: Db, workspaceId: string): Promise<DefinitionRow[]> {
  const found = rows<DefinitionRow & { modelVersion: number }>(
    await db.execute(sql`
      select schema, id, data, model_version as "modelVersion" from items
      where workspace_id = ${workspaceId}
        and schema in ('customer-profile-attribute', 'behavioral-event', 'audience')`),
  );
  const model = await modelOfWorkspace(db, workspaceId);
  return model ? replayedCopies(db, workspaceId, model.version, found, 'copy') : found;
}

/** The attribute the workspace's campaigns read addresses from (its sending settings). */
export async function emailAttributeOf(db: Db, workspaceId: string) {
  const [row] = rows<{ email_attribute: string }>(
    await db.execute(sql`select email_attribute from sending_settings where workspace_id = ${workspaceId}`),
  );
  return row?.email_attribute ?? RECIPIENT_DEFAULTS.emailAttribute;
}

/**
 * Inserts or updates profiles: given attributes replace those keys, others stay, except that a stored
 * value of a `keep` key is never replaced; a profile they would not change is left as it was. The rows
 * are copied into a staging table (emptied at commit) and merged by one statement; ids must be
 * distinct. Answers the ids of the profiles left as they were.
 */
export async function upsertProfiles(
  db: Db | Tx,
  workspaceId: string,
  profiles: [id: string, attributes: Record<string, unknown>][],
  keep: readonly string[] = [],
): Promise<Set<string>> {
  if (!profiles.length) return new Set();
  const given = keep.length
    ? sql`(excluded.attributes - array(
        select key from jsonb_object_keys(customer_profiles.attributes) as stored(key)
        where key = any(${sql.param([...keep])}::text[])))`
    : sql`excluded.attributes`;
  // In a transaction of its own (a savepoint inside the caller's): one connection, and the staging
  // rows are moved out by the merge.
  const unchanged = await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temp table if not exists profiles_import (id text not null, attributes jsonb not null)
      on commit delete rows`);
    await copyRows(
      tx,
      'profiles_import',
      ['id', 'attributes'],
      profiles.map(([id, attributes]) => [id, JSON.stringify(attributes)]),
    );
    const written = rows<{ id: string }>(
      await tx.execute(sql`
        with staged as (delete from profiles_import returning id, attributes)
        insert into customer_profiles (workspace_id, id, attributes, updated_at)
        select ${workspaceId}, id, attributes, now() from staged
        on conflict (workspace_id, id) do update
          set attributes = customer_profiles.attributes || ${given}, updated_at = excluded.updated_at
          where customer_profiles.attributes is distinct from customer_profiles.attributes || ${given}
        returning id`),
    );
    const left = new Set(profiles.map(([id]) => id));
    for (const { id } of written) left.delete(id);
    return left;
  });
  // In the caller's transaction when it has one, as for events.
  if (unchanged.size < profiles.length) await noticeProfileChanges(db, workspaceId);
  return unchanged;
}

/**
 * An event to write: its profile, event key, time, properties, and the source's own id for it when the
 * source has one (its identity; else one is derived from the rest: `event-identity.ts`).
 */
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
export const EVENT_COPY_COLUMNS = ['workspace_id', 'profile_id', 'event', 'at', 'properties', 'ident'];
const columns = sql.raw(EVENT_COPY_COLUMNS.join(', '));

/**
 * The COPY text of events, key by key, with each event's identity; `sorted`, each key's events sorted
 * by profile (the order of the live partitions' indexes, so a chunk's entries land on neighbouring
 * pages). Written here rather than by copyRows: no row arrays, and the workspace and the event key
 * escaped once (the server's CPU and PostgreSQL's share two cores during an import). The properties
 * are written as jsonb prints them, the text their identity hashes.
 */
export function eventsCopyText(workspaceId: string, byKey: EventsByKey, sorted = false) {
  const prefix = `${copyValue(workspaceId)}\t`;
  let text = '';
  for (const key of [...byKey.keys()].sort()) {
    const event = `\t${copyValue(key)}\t`;
    const group = sorted ? byKey.get(key)!.sort(byProfile) : byKey.get(key)!;
    for (const [profileId, , at, properties, id] of group) {
      const json = jsonbText(properties);
      const ident = eventIdentity(workspaceId, profileId, key, at, json, id);
      text += `${prefix}${copyValue(profileId)}${event}${at}\t${copyValue(json)}\t${ident}\n`;
    }
  }
  return text;
}

/**
 * Live writers (`insertEvents`) hold this advisory lock shared, and a segment being attached takes it
 * alone for its last step (`segments.ts`): a live write then either sees the attached segment's events
 * or is seen by the attach.
 */
export const LIVE_EVENTS_LOCK = 0x5e9e48;

/**
 * Moves staged events into the live partitions, each one not stored yet, and adds those it stored to
 * each profile's count per event key (`customer_event_counts`, which the audience compiler reads for
 * all-time COUNT rules), in one statement. An event is stored once per profile: the unique index on
 * its identity (`on conflict do nothing`: a repeat within the batch, an event already live, or one a
 * concurrent writer stores first) and a probe of the attached segments, whose identities the live
 * partitions' index does not hold. Rows are inserted in index order, event key then profile, and the
 * counts merged in that order, so concurrent writers lock the same rows in the same order. `staged` is
 * a table of EVENT_COPY_COLUMNS emptied by the statement (a temporary table, or a small segment).
 */
export async function insertStaged(tx: Tx, staged: SQLWrapper): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${LIVE_EVENTS_LOCK})`);
  const [row] = rows<{ stored: string | number }>(
    await tx.execute(sql`
    with staged as (delete from ${staged} returning ${columns}),
    stored as (
      insert into customer_events (${columns})
      select ${columns} from staged s
      where not exists (
        select 1 from customer_events e
        where e.ident = s.ident and e.profile_id = s.profile_id and e.segment <> 0)
      order by event, profile_id
      on conflict do nothing
      returning workspace_id, event, profile_id),
    counted as (
      insert into customer_event_counts (workspace_id, event, profile_id, count)
      select workspace_id, event, profile_id, count(*) from stored
      group by workspace_id, event, profile_id
      order by workspace_id, event, profile_id
      on conflict (workspace_id, event, profile_id) do update
        set count = customer_event_counts.count + excluded.count)
    select count(*) as stored from stored`),
  );
  return Number(row.stored);
}

/**
 * Writes events into the live partitions, each one once (see `insertStaged`), with their counts: the
 * events are copied into a staging table first. (A large import writes most of its events into
 * segments instead: `segments.ts`.) Answers how many were stored: the others were stored already.
 */
export async function insertEvents(db: Db | Tx, workspaceId: string, events: EventsByKey | EventTuple[]) {
  const byKey = Array.isArray(events) ? byEventKey(events) : events;
  if (!byKey.size) return 0;
  const text = eventsCopyText(workspaceId, byKey, true);
  // In a transaction of its own (a savepoint inside the caller's): live tracking calls this outside one.
  const stored = await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temp table if not exists events_import (
        workspace_id text not null, profile_id text not null, event text not null,
        at timestamptz not null, properties jsonb not null, ident bigint not null
      ) on commit delete rows`);
    await copyFrom(tx, 'events_import', EVENT_COPY_COLUMNS, text);
    return insertStaged(tx, sql`events_import`);
  });
  // In the caller's transaction when it has one (the savepoint's is not one the job queue can name).
  if (stored) await noticeJourneyEvents(db, workspaceId, byKey);
  return stored;
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
