import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';
import {
  attributeRule,
  defineCustomerData,
  eventRule,
  group,
  importBody,
  sizeOf,
  storedEventLines,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';

/**
 * Large imports load into segments of their own (`customers/segments.ts`). With chunks of 3 rows, 4
 * rows direct, segments of 8 and at most 2 of them, a few dozen events go through every path: direct
 * chunks, segments attached while the next loads, the fold of the smallest segment into a new one, and
 * a short last segment moved into the live partitions. The same events tracked live into a second
 * workspace are the reference: events, counts, profile screen and sizes must be the same.
 */
let t: TestApp;
let manager: TestUser;
let imported: { ws: string; defs: MarketingDefinitions };
let tracked: { ws: string; defs: MarketingDefinitions };

const PROFILES = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];

/** Deterministic events: purchases with an amount and a sku, visits with a page, over six months. */
function someEvents(count: number, seed: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = i * 7 + seed;
    const at = new Date(Date.UTC(2026, n % 6, 1 + (n % 27), n % 24)).toISOString();
    return n % 3 === 0
      ? { profileId: PROFILES[n % 6], event: 'visit', at, properties: { page: n % 2 ? 'home' : 'pricing' } }
      : {
          profileId: PROFILES[(n * 5) % 6],
          event: 'purchase',
          at,
          properties: { amount: n % 50, sku: n % 4 ? 'A' : 'B' },
        };
  });
}

function csvOf(events: ReturnType<typeof someEvents>, badAt?: number) {
  const lines = ['profileId,event,at,amount,sku,page'];
  events.forEach((e, i) => {
    if (i === badAt) lines.push(`p0,refund,${e.at},,,`);
    const p = e.properties as Record<string, unknown>;
    lines.push(`${e.profileId},${e.event},${e.at},${p.amount ?? ''},${p.sku ?? ''},${p.page ?? ''}`);
  });
  return lines.join('\n');
}

const importEvents = async (ws: string, csv: string) => {
  const res = await importBody(t, manager, ws, 'customer-events', 'text/csv', csv);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().batch;
};

const track = async (ws: string, events: ReturnType<typeof someEvents>) => {
  const res = await call(t, 'POST', wsUrl(ws, 'customer-events'), manager, { events });
  expect(res.statusCode, res.body).toBe(200);
};

const storedEvents = (ws: string) => storedEventLines(t, ws);

const storedCounts = async (ws: string) =>
  rows<{ line: string }>(
    await t.database.db.execute(sql`
      select line from (
        select event || ' ' || profile_id || ' ' || count as line
        from customer_event_counts where workspace_id = ${ws}) c
      order by line collate "C"`),
  ).map((row) => row.line);

/** The attached segments, and the segment tables not attached (an import's that never finished). */
async function segmentTables() {
  const [row] = rows<{ attached: number | string; loose: number | string }>(
    await t.database.db.execute(sql`
      select
        (select count(*) from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'customer_events_p0'::regclass and c.relname <> 'customer_events_live_p0')
          as attached,
        (select count(*) from pg_class where relname ~ '^customer_events_s[0-9]+$') as loose`),
  );
  return { attached: Number(row.attached), loose: Number(row.loose) };
}

beforeAll(async () => {
  t = await createTestApp({
    importChunkRows: 3,
    eventSegments: { directRows: 4, segmentRows: 8, maxSegments: 2 },
  });
  manager = await verifiedUser(t, { name: 'Sid Segments' });
  const workspace = async (name: string) => {
    const { ws } = await teamWorkspace(t, manager, { name, domains: ['marketing'], roles: {}, people: {} });
    const defs = await defineCustomerData(t, manager, ws);
    const profiles = ['id,age', ...PROFILES.map((id, i) => `${id},${20 + i * 10}`)].join('\n');
    expect((await importBody(t, manager, ws, 'profiles', 'text/csv', profiles)).statusCode).toBe(201);
    return { ws, defs };
  };
  imported = await workspace('Imported');
  tracked = await workspace('Tracked');
});
afterAll(() => t.close());

it('an import through segments stores what live tracking stores: events, counts, profile screen and sizes', async () => {
  const first = someEvents(30, 1);
  const second = someEvents(25, 4);
  const batch = await importEvents(imported.ws, csvOf(first, 10));
  expect(batch).toMatchObject({ status: 'done with errors', processed: 30, failed: 1 });
  expect(batch.errors).toEqual([{ line: 12, message: 'unknown event "refund"' }]);
  expect(await importEvents(imported.ws, csvOf(second))).toMatchObject({ status: 'done', processed: 25 });
  await track(tracked.ws, [...first, ...second]);

  // Five segments were filled, two are left (folds), none is left loose.
  expect(await segmentTables()).toEqual({ attached: 2, loose: 0 });
  const [{ opened }] = rows<{ opened: number | string }>(
    await t.database.db.execute(sql`select last_value as opened from customer_event_segments`),
  );
  expect(Number(opened)).toBeGreaterThan(2);
  const [{ inSegments }] = rows<{ inSegments: number | string }>(
    await t.database.db.execute(
      sql`select count(*) as "inSegments" from customer_events where workspace_id = ${imported.ws} and segment > 0`,
    ),
  );
  expect(Number(inSegments)).toBeGreaterThan(8);

  expect(await storedEvents(imported.ws)).toEqual(await storedEvents(tracked.ws));
  expect(await storedEvents(imported.ws)).toHaveLength(55);
  expect(await storedCounts(imported.ws)).toEqual(await storedCounts(tracked.ws));

  for (const id of PROFILES) {
    const [a, b] = await Promise.all(
      [imported.ws, tracked.ws].map((ws) => call(t, 'GET', wsUrl(ws, `profiles/${id}`), manager)),
    );
    expect(a.json().events).toEqual(b.json().events);
  }

  const trees = (defs: MarketingDefinitions) => [
    group('and', [eventRule(defs, 'purchase', { lookBackUnit: 'anytime', aggregatorValue: 3 })]),
    group('and', [
      eventRule(defs, 'visit', { lookBackUnit: 'anytime', aggregatorCondition: '<=', aggregatorValue: 2 }),
    ]),
    group('and', [
      eventRule(defs, 'purchase', {
        lookBackUnit: 'months',
        lookBackValue: 3,
        aggregator: 'TOTAL',
        property: 'amount',
        aggregatorValue: 40,
        whereProperty: 'sku',
        whereOperator: '==',
        whereValue: 'A',
      }),
    ]),
    group('or', [
      eventRule(defs, 'visit', { lookBackUnit: 'days', lookBackValue: 60, aggregatorValue: 2 }),
      attributeRule(defs, 'age', '>=', 60),
    ]),
  ];
  const sizes = async (ws: string, defs: MarketingDefinitions) => {
    const answers = [];
    for (const asOf of ['2026-03-15T00:00:00.000Z', '2026-07-01T00:00:00.000Z']) {
      for (const tree of trees(defs)) answers.push((await sizeOf(t, manager, ws, tree, asOf)).json());
    }
    return answers;
  };
  const expected = await sizes(tracked.ws, tracked.defs);
  expect(expected.some((answer) => answer.size > 0 && answer.size < 6)).toBe(true);
  expect(await sizes(imported.ws, imported.defs)).toEqual(expected);
});

it('an import that stops keeps the events read before it, its segment attached', async () => {
  const before = (await storedEvents(imported.ws)).length;
  const events = someEvents(12, 9);
  // A quoted cell that never closes, sent after the rows: the reader stops the import past 1,000,000
  // characters.
  const res = await t.app.inject({
    method: 'POST',
    url: wsUrl(imported.ws, 'customer-events/import'),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: Readable.from([
      `${csvOf(events)}\n`,
      `p1,visit,2026-01-01T00:00:00Z,,,"${'x'.repeat(1_000_001)}`,
    ]),
  });
  const { batch } = res.json();
  expect(batch.status).toBe('failed');
  expect(batch.errors.at(-1).message).toMatch(/^Import stopped: line 14 starts a record longer than/);
  expect((await storedEvents(imported.ws)).length).toBe(before + 12);
  expect(await segmentTables()).toMatchObject({ loose: 0 });
  await track(tracked.ws, events);
  expect(await storedCounts(imported.ws)).toEqual(await storedCounts(tracked.ws));
});

it('imports running side by side attach and fold their segments one at a time, losing and doubling nothing', async () => {
  const batches = [someEvents(40, 11), someEvents(40, 12), someEvents(40, 13)];
  const results = await Promise.all(batches.map((events) => importEvents(imported.ws, csvOf(events))));
  expect(results.map((batch) => [batch.status, batch.processed])).toEqual([
    ['done', 40],
    ['done', 40],
    ['done', 40],
  ]);
  await track(tracked.ws, batches.flat());
  expect(await segmentTables()).toEqual({ attached: 2, loose: 0 });
  expect(await storedEvents(imported.ws)).toEqual(await storedEvents(tracked.ws));
  expect(await storedCounts(imported.ws)).toEqual(await storedCounts(tracked.ws));
});

it('an attach PostgreSQL refuses fails the import and leaves no segment behind, nor the one loaded after it', async () => {
  // A real fault, not a mock: an event trigger refuses ALTER TABLE … ATTACH PARTITION while it exists.
  await t.database.db.execute(sql`
    create function refuse_attach() returns event_trigger language plpgsql as $$
    begin
      if current_query() ilike '%attach partition%' then raise exception 'attach refused for the test'; end if;
    end $$`);
  await t.database.db.execute(
    sql`create event trigger refuse_attach on ddl_command_start when tag in ('ALTER TABLE') execute function refuse_attach()`,
  );
  try {
    const before = await storedEvents(imported.ws);
    const batch = await importEvents(imported.ws, csvOf(someEvents(40, 21)));
    expect(batch.status).toBe('failed');
    // The database's message, not the statement that failed.
    expect(batch.errors.at(-1)).toEqual({ line: 0, message: 'Import stopped: attach refused for the test' });
    expect(await segmentTables()).toEqual({ attached: 2, loose: 0 });
    // Only the rows written directly (the first chunks) went in.
    const after = await storedEvents(imported.ws);
    expect(after.length - before.length).toBeLessThan(8);
  } finally {
    await t.database.db.execute(sql`drop event trigger refuse_attach`);
    await t.database.db.execute(sql`drop function refuse_attach()`);
  }
});
