import { sql } from 'drizzle-orm';
import type { EmailConsentState } from '@shared/api/customers';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';

/**
 * The text profile search looks in: the id and every string attribute value, lowercased. Word for word
 * the expression of `customer_profiles_search_idx` (migration 0021), so the planner matches it to the
 * index: the JSON path is a literal, never a parameter.
 */
const PROFILE_SEARCH_TEXT = sql.raw(
  `lower(p.id || ' ' || coalesce(jsonb_path_query_array(p.attributes, 'strict $.* ? (@.type() == "string")')::text, ''))`,
);

/** updated_at to the microsecond: the version an edit is based on. */
const UPDATED_AT = sql.raw(`to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
const PROFILE_COLUMNS = sql`p.id, p.attributes, ${UPDATED_AT} as updated_at, p.email_consent,
  p.email_consent_at, p.email_consent_source`;

export interface ProfileRecord {
  id: string;
  attributes: Record<string, unknown>;
  updated_at: string;
  email_consent: EmailConsentState;
  email_consent_at: string | Date | null;
  email_consent_source: string | null;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Profiles in id order a search reads first, before it asks the trigram index. */
const SEARCH_SAMPLE = 1000;

/**
 * Profiles whose id or a string attribute value holds `text` (any case), the profile with exactly that
 * id first, at most `limit`. A text common enough to fill the page among the first SEARCH_SAMPLE
 * profiles by id is answered from them (a walk of the primary key: about a millisecond); a rarer one
 * from the trigram index, in no order, which then has at most a few percent of the profiles to collect.
 * Either alone fails somewhere (at 1,000,000 profiles): the index collects every match before the
 * first, 27 ms for `example.com` (250,000 matches); ORDER BY id lets the planner walk the primary key
 * for a text it takes for common, 530 ms for `smith99` (1,110 matches late in id order).
 */
export async function searchProfiles(db: Db, workspaceId: string, text: string, limit: number) {
  const pattern = `%${likeEscape(text.toLowerCase())}%`;
  const [exact, first] = await Promise.all([
    db.execute(sql`
      select ${PROFILE_COLUMNS} from customer_profiles p
      where p.workspace_id = ${workspaceId}::text and p.id = ${text}::text`),
    db.execute(sql`
      select ${PROFILE_COLUMNS} from (
        select * from customer_profiles where workspace_id = ${workspaceId}::text
        order by id limit ${SEARCH_SAMPLE}::int
      ) p
      where p.id <> ${text}::text and ${PROFILE_SEARCH_TEXT} like ${pattern}::text
      limit ${limit}::int`),
  ]);
  let found = rows<ProfileRecord>(first);
  if (found.length < limit) {
    found = rows<ProfileRecord>(
      await db.execute(sql`
        select ${PROFILE_COLUMNS} from customer_profiles p
        where p.workspace_id = ${workspaceId}::text and p.id <> ${text}::text
          and ${PROFILE_SEARCH_TEXT} like ${pattern}::text
        limit ${limit}::int`),
    );
  }
  return [...rows<ProfileRecord>(exact), ...found].slice(0, limit);
}

export async function findProfile(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = rows<ProfileRecord>(
    await db.execute(sql`
      select ${PROFILE_COLUMNS} from customer_profiles p
      where p.workspace_id = ${workspaceId}::text and p.id = ${id}::text`),
  );
  return row;
}

/**
 * The workspace's event keys, one index probe each (a skip scan: the events' indexes lead with the
 * key), so a profile's events can be read or deleted key by key, each an index range.
 */
export async function eventKeys(db: Db | Tx, workspaceId: string) {
  return rows<{ event: string }>(
    await db.execute(sql`
      with recursive keys(event) as (
        select min(event) from customer_events where workspace_id = ${workspaceId}::text
        union all
        select (select min(event) from customer_events
                where workspace_id = ${workspaceId}::text and event > keys.event)
        from keys where keys.event is not null
      )
      select event from keys where event is not null`),
  ).map((row) => row.event);
}

export interface TimelineEvent {
  event: string;
  at: string;
  properties: Record<string, unknown>;
}

/** Where a timeline page starts: before `at`, or at `at` after the first `skip` events there. */
export interface TimelineCursor {
  at: string;
  skip: number;
}

/**
 * A profile's events newest first, `limit` of them from `cursor`: per key one index range (the newest
 * `skip + limit + 1` at or before the cursor), merged. Events at the same instant are ordered by key and
 * properties, so a page boundary among them is stable.
 */
export async function profileEvents(
  db: Db,
  workspaceId: string,
  profileId: string,
  options: { keys: string[]; cursor?: TimelineCursor; limit: number },
) {
  if (!options.keys.length) return [];
  const take = options.limit + 1 + (options.cursor?.skip ?? 0);
  const before = options.cursor ? sql`and at <= ${options.cursor.at}::timestamptz` : sql``;
  return rows<TimelineEvent>(
    await db.execute(sql`
      select e.event, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, e.properties
      from unnest(${sql`array[${sql.join(
        options.keys.map((key) => sql`${key}::text`),
        sql`, `,
      )}]`}) as k(event)
      cross join lateral (
        select event, at, properties from customer_events
        where workspace_id = ${workspaceId}::text and event = k.event and profile_id = ${profileId}::text ${before}
        order by at desc, properties::text
        limit ${take}::int
      ) e
      order by e.at desc, e.event, e.properties::text
      limit ${take}::int`),
  );
}

export interface ProfileChange {
  set: Record<string, unknown>;
  remove: string[];
  emailConsent?: EmailConsentState;
  consentSource: string;
}

/**
 * Applies a member's change to a profile if it is still at `updatedAt`: 'missing' when there is no such
 * profile, 'stale' when it changed since. The consent's time and source move only when its state does.
 */
export async function updateProfile(
  tx: Tx,
  workspaceId: string,
  id: string,
  updatedAt: string,
  change: ProfileChange,
): Promise<ProfileRecord | 'missing' | 'stale'> {
  const [row] = rows<ProfileRecord>(
    await tx.execute(sql`
      update customer_profiles p set
        attributes = (p.attributes - array(select jsonb_array_elements_text(${JSON.stringify(change.remove)}::jsonb)))
          || ${JSON.stringify(change.set)}::jsonb,
        updated_at = clock_timestamp(),
        email_consent = coalesce(${change.emailConsent ?? null}::text, p.email_consent),
        email_consent_at = case when ${change.emailConsent ?? null}::text <> p.email_consent
          then clock_timestamp() else p.email_consent_at end,
        email_consent_source = case when ${change.emailConsent ?? null}::text <> p.email_consent
          then ${change.consentSource}::text else p.email_consent_source end
      where p.workspace_id = ${workspaceId}::text and p.id = ${id}::text
        and p.updated_at = ${updatedAt}::timestamptz
      returning ${PROFILE_COLUMNS}`),
  );
  if (row) return row;
  return (await findProfile(tx, workspaceId, id)) ? 'stale' : 'missing';
}

/**
 * An import's consents: each profile's email consent set where it differs, with the time and source.
 * The profiles were written earlier in the same transaction.
 */
export async function applyImportConsents(
  tx: Tx,
  workspaceId: string,
  consents: Map<string, EmailConsentState>,
): Promise<Set<string>> {
  if (!consents.size) return new Set();
  const given = [...consents].map(([id, state]) => ({ id, state }));
  const changed = rows<{ id: string }>(
    await tx.execute(sql`
      update customer_profiles p set
        email_consent = c.state, email_consent_at = now(), email_consent_source = 'import'
      from json_to_recordset(${JSON.stringify(given)}::json) as c(id text, state text)
      where p.workspace_id = ${workspaceId}::text and p.id = c.id and p.email_consent <> c.state
      returning p.id`),
  );
  return new Set(changed.map((row) => row.id));
}

/**
 * Deletes a profile, its events, its event counts, its places in campaign sends and its journey runs (in the caller's transaction). Each delete names
 * the profile id, so it reaches one hash partition, and the events are found key by key through the
 * (workspace_id, event, profile_id, at) index of every segment. Answers the events deleted, or null
 * when there was no such profile.
 */
export async function eraseProfile(tx: Tx, workspaceId: string, id: string): Promise<number | null> {
  const [profile] = rows<{ id: string }>(
    await tx.execute(sql`
      delete from customer_profiles where workspace_id = ${workspaceId}::text and id = ${id}::text
      returning id`),
  );
  if (!profile) return null;
  // Its address leaves every campaign send too (what it did there stays, by recipient number only),
  // and every experiment's holdout.
  await tx.execute(sql`
    delete from campaign_recipients where workspace_id = ${workspaceId}::text and profile_id = ${id}::text`);
  await tx.execute(sql`
    delete from campaign_holdouts where workspace_id = ${workspaceId}::text and profile_id = ${id}::text`);
  // And every journey: its runs and their steps.
  await tx.execute(sql`
    with runs as (
      delete from journey_runs where workspace_id = ${workspaceId}::text and profile_id = ${id}::text
      returning id)
    delete from journey_tasks t using runs r
    where t.workspace_id = ${workspaceId}::text and t.run_id = r.id`);
  for (const table of ['journey_audience_members', 'journey_occurrences'])
    await tx.execute(sql`
      delete from ${sql.identifier(table)} where workspace_id = ${workspaceId}::text and profile_id = ${id}::text`);
  const keys = await eventKeys(tx, workspaceId);
  if (!keys.length) return 0;
  const keyList = sql`array[${sql.join(
    keys.map((key) => sql`${key}::text`),
    sql`, `,
  )}]`;
  const [deleted] = rows<{ n: string | number }>(
    await tx.execute(sql`
      with gone as (
        delete from customer_events
        where workspace_id = ${workspaceId}::text and profile_id = ${id}::text and event = any(${keyList})
        returning 1
      )
      select count(*) as n from gone`),
  );
  await tx.execute(sql`
    delete from customer_event_counts
    where workspace_id = ${workspaceId}::text and profile_id = ${id}::text and event = any(${keyList})`);
  return Number(deleted.n);
}
