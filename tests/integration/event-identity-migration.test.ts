import { sql } from 'drizzle-orm';
import { migrateDatabase, rows } from '@server/db/migrate';
import { insertEvents } from '@server/customers/repository';
import { migrateUpTo, openTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * Migration 0022 gives every event stored before it the identity a new event gets (the same hash,
 * computed in SQL), keeps an event stored twice once, and counts the events left: the same events
 * written again after it add nothing.
 */
let database: TestDatabase;

const events = async () =>
  rows<{ line: string }>(
    await database.db.execute(sql`
      select line from (
        select profile_id || ' ' || event || ' ' || properties::text as line from customer_events) e
      order by line collate "C"`),
  ).map((row) => row.line);
const counts = async () =>
  rows<{ line: string }>(
    await database.db.execute(sql`
      select line from (
        select event || ' ' || profile_id || ' ' || count as line from customer_event_counts) c
      order by line collate "C"`),
  ).map((row) => row.line);

beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  await migrateUpTo(database, 21);
  await database.db.execute(sql`
    insert into workspaces (id, name, basics, roles, subscription, created_by)
    values ('w1', 'w1', '{}', '{}', '{"plan": "free"}', 'someone')`);
  // A visit imported twice, a purchase once (its properties as an import wrote them), a visit of p2.
  await database.db.execute(sql`
    insert into customer_events (workspace_id, profile_id, event, at, properties) values
      ('w1', 'p1', 'visit', '2026-03-01T10:00:00.123Z', '{"page": "home"}'),
      ('w1', 'p1', 'visit', '2026-03-01T10:00:00.123Z', '{"page": "home"}'),
      ('w1', 'p1', 'purchase', '2026-03-02T00:00:00Z', '{"amount": 12.5, "sku": "A", "labels": ["a", "b"]}'),
      ('w1', 'p2', 'visit', '2026-03-01T10:00:00.123Z', '{"page": "home"}')`);
  await database.db.execute(sql`
    insert into customer_event_counts (workspace_id, event, profile_id, count)
    values ('w1', 'visit', 'p1', 2), ('w1', 'purchase', 'p1', 1), ('w1', 'visit', 'p2', 1)`);
  await migrateDatabase(database);
});
afterAll(() => database.close());

test('an event stored twice is kept once, and the counts are those of the events left', async () => {
  expect(await events()).toEqual([
    'p1 purchase {"sku": "A", "amount": 12.5, "labels": ["a", "b"]}',
    'p1 visit {"page": "home"}',
    'p2 visit {"page": "home"}',
  ]);
  expect(await counts()).toEqual(['purchase p1 1', 'visit p1 1', 'visit p2 1']);
});

test('the events written again after the migration are found by their identity: only a new one is added', async () => {
  await insertEvents(database.db, 'w1', [
    ['p1', 'visit', '2026-03-01T10:00:00.123Z', { page: 'home' }],
    ['p1', 'purchase', '2026-03-02T00:00:00.000Z', { labels: ['a', 'b'], amount: 12.5, sku: 'A' }],
    ['p2', 'visit', '2026-03-01T10:00:00.124Z', { page: 'home' }],
  ]);
  expect(await events()).toEqual([
    'p1 purchase {"sku": "A", "amount": 12.5, "labels": ["a", "b"]}',
    'p1 visit {"page": "home"}',
    'p2 visit {"page": "home"}',
    'p2 visit {"page": "home"}',
  ]);
  expect(await counts()).toEqual(['purchase p1 1', 'visit p1 1', 'visit p2 2']);
});
