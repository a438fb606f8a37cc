import { sql } from 'drizzle-orm';
import { migrateDatabase, rows } from '@server/db/migrate';
import { CUSTOMER_PARTITIONS } from '@server/db/schema';
import { migrateUpTo, openTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * Migration 0013 turns the customer tables of a database that already holds customer data into hash
 * partitions on the profile id: every row survives, and a profile's events and counts sit in the
 * partition of the same number as the profile (what the audience sizes' per-partition joins rely on).
 */
let database: TestDatabase;
let before: string[];

const dump = async () =>
  rows<{ line: string }>(
    await database.db.execute(sql`
      select line from (
        select 'profile ' || workspace_id || ' ' || id || ' ' || attributes::text as line from customer_profiles
        union all
        select 'event ' || workspace_id || ' ' || profile_id || ' ' || event || ' ' || at::text || ' ' || properties::text
        from customer_events
        union all
        select 'count ' || workspace_id || ' ' || event || ' ' || profile_id || ' ' || count from customer_event_counts
      ) lines order by line collate "C"`),
  ).map((row) => row.line);

beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  await migrateUpTo(database, 12);
  for (const ws of ['w1', 'w2']) {
    await database.db.execute(sql`
      insert into workspaces (id, name, basics, roles, subscription, created_by)
      values (${ws}, ${ws}, '{}', '{}', '{"plan": "free"}', 'someone')`);
    await database.db.execute(sql`
      insert into customer_profiles (workspace_id, id, attributes)
      select ${ws}, 'c' || n, jsonb_build_object('age', n % 70) from generate_series(1, 300) n`);
    await database.db.execute(sql`
      insert into customer_events (workspace_id, profile_id, event, at, properties)
      select ${ws}, 'c' || (n % 250), case when n % 3 = 0 then 'purchase' else 'visit' end,
        timestamptz '2026-01-01' + n * interval '1 hour', jsonb_build_object('amount', n)
      from generate_series(1, 2000) n`);
    await database.db.execute(sql`
      insert into customer_event_counts (workspace_id, event, profile_id, count)
      select workspace_id, event, profile_id, count(*) from customer_events where workspace_id = ${ws}
      group by workspace_id, event, profile_id`);
  }
  before = await dump();
  await migrateDatabase(database);
});
afterAll(() => database.close());

test('every profile, event and count survives the migration', async () => {
  expect(before.length).toBe(2 * (300 + 2000) + before.filter((line) => line.startsWith('count')).length);
  expect(await dump()).toEqual(before);
});

test('the three tables are partitioned, and a profile’s rows share its partition number', async () => {
  const parts = rows<{ parent: string; n: number | string }>(
    await database.db.execute(sql`
      select parent.relname as parent, count(*) as n from pg_inherits i
      join pg_class parent on parent.oid = i.inhparent
      where parent.relname in ('customer_profiles', 'customer_events', 'customer_event_counts')
      group by parent.relname order by parent.relname`),
  ).map((row) => `${row.parent} ${Number(row.n)}`);
  expect(parts).toEqual(
    ['customer_event_counts', 'customer_events', 'customer_profiles'].map(
      (table) => `${table} ${CUSTOMER_PARTITIONS}`,
    ),
  );
  const [{ used, misplaced }] = rows<{ used: number | string; misplaced: number | string }>(
    await database.db.execute(sql`
      with placed as (
        select profile_id, right(tableoid::regclass::text, 2) as part from customer_events
        union all
        select profile_id, right(tableoid::regclass::text, 2) from customer_event_counts
      )
      select (select count(distinct right(tableoid::regclass::text, 2)) from customer_profiles) as used,
        (select count(*) from placed join customer_profiles p on p.id = placed.profile_id
         where right(p.tableoid::regclass::text, 2) <> placed.part) as misplaced`),
  );
  expect(Number(used)).toBe(CUSTOMER_PARTITIONS);
  expect(Number(misplaced)).toBe(0);
});

test('writes go on after the migration: a profile upsert and an event land in their partitions', async () => {
  await database.db.execute(sql`
    insert into customer_profiles (workspace_id, id, attributes) values ('w1', 'c1', '{"age": 99}')
    on conflict (workspace_id, id) do update set attributes = excluded.attributes`);
  await database.db.execute(sql`
    insert into customer_events (workspace_id, profile_id, event, at, properties, ident)
    values ('w1', 'c1', 'visit', now(), '{}', 0)`);
  const [row] = rows<{ age: number; events: number | string }>(
    await database.db.execute(sql`
      select (attributes->>'age')::int as age,
        (select count(*) from customer_events where workspace_id = 'w1' and profile_id = 'c1') as events
      from customer_profiles where workspace_id = 'w1' and id = 'c1'`),
  );
  expect(row.age).toBe(99);
  expect(Number(row.events)).toBe(before.filter((line) => line.startsWith('event w1 c1 ')).length + 1);
});
