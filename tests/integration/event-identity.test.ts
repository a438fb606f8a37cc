import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';
import { defineCustomerData, importBody, storedEventLines, wsUrl } from '../factories/customers';

/**
 * Every event has an identity (its source id, else derived from profile, event, time and properties)
 * and is stored once: a file imported again, an overlapping export, a batch sent twice, a file that
 * repeats itself and two imports of one file at once store nothing twice, and the per-profile counts
 * stay equal to the events stored. Chunks of 3 rows, 4 rows direct and segments of 8 (at most 2) take
 * the events through every write path: the live partitions, segments attached, folded and moved.
 */
let t: TestApp;
let manager: TestUser;

const PROFILES = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
type Event = {
  profileId: string;
  event: string;
  at: string;
  properties: Record<string, unknown>;
  id?: string;
};

/** Deterministic distinct events: purchases with an amount and a sku, visits with a page. */
const someEvents = (from: number, to: number): Event[] =>
  Array.from({ length: to - from }, (_, i) => {
    const n = from + i;
    const at = new Date(Date.UTC(2026, n % 6, 1 + (n % 27), n % 24, n)).toISOString();
    return n % 3 === 0
      ? { profileId: PROFILES[n % 6], event: 'visit', at, properties: { page: n % 2 ? 'home' : 'pricing' } }
      : { profileId: PROFILES[(n * 5) % 6], event: 'purchase', at, properties: { sku: 'A', amount: n } };
  });

function csvOf(events: Event[], withIds = false) {
  const lines = [`profileId,event,at,amount,sku,page${withIds ? ',id' : ''}`];
  for (const e of events) {
    const p = e.properties;
    const cells = [e.profileId, e.event, e.at, p.amount ?? '', p.sku ?? '', p.page ?? ''];
    lines.push([...cells, ...(withIds ? [e.id ?? ''] : [])].join(','));
  }
  return lines.join('\n');
}

/** NDJSON, the properties' keys in the reverse order of the CSV's columns. */
const ndjsonOf = (events: Event[]) =>
  events
    .map((e) =>
      JSON.stringify({ ...e, properties: Object.fromEntries(Object.entries(e.properties).reverse()) }),
    )
    .join('\n');

const importEvents = async (ws: string, body: string, type = 'text/csv') => {
  const res = await importBody(t, manager, ws, 'customer-events', type, body);
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().batch.status).toBe('done');
  return res.json().batch as { processed: number; failed: number };
};

const track = async (ws: string, events: Event[]) => {
  const res = await call(t, 'POST', wsUrl(ws, 'customer-events'), manager, { events });
  expect(res.statusCode, res.body).toBe(200);
};

/** The events stored, as lines, and whether the counts equal them per event and profile. */
async function stored(ws: string) {
  const lines = await storedEventLines(t, ws);
  const [{ mismatches, counted }] = rows<{ mismatches: number | string; counted: number | string }>(
    await t.database.db.execute(sql`
      select count(*) filter (where c.count is distinct from e.n) as mismatches, coalesce(sum(c.count), 0) as counted
      from (select * from customer_event_counts where workspace_id = ${ws}) c
      full join (select workspace_id, event, profile_id, count(*) as n from customer_events
                 where workspace_id = ${ws} group by workspace_id, event, profile_id) e
        on e.workspace_id = c.workspace_id and e.event = c.event and e.profile_id = c.profile_id`),
  );
  expect(Number(mismatches), 'counts equal to the events stored').toBe(0);
  expect(Number(counted)).toBe(lines.length);
  return lines;
}

const lineOf = (e: Event) =>
  `${e.profileId} ${e.event} ${e.at.slice(0, 19)} ${JSON.stringify(e.properties)
    .replace(/":/g, '": ')
    .replace(/,"/g, ', "')}`;

async function workspace(name: string) {
  const { ws } = await teamWorkspace(t, manager, { name, domains: ['marketing'], roles: {}, people: {} });
  await defineCustomerData(t, manager, ws);
  const profiles = ['id,age', ...PROFILES.map((id, i) => `${id},${20 + i}`)].join('\n');
  expect((await importBody(t, manager, ws, 'profiles', 'text/csv', profiles)).statusCode).toBe(201);
  return ws;
}

beforeAll(async () => {
  t = await createTestApp({
    importChunkRows: 3,
    eventSegments: { directRows: 4, segmentRows: 8, maxSegments: 2 },
  });
  manager = await verifiedUser(t, { name: 'Ida Identity' });
});
afterAll(() => t.close());

it('a file imported again, an overlapping export, a repeating file and a batch sent twice store each event once', async () => {
  const ws = await workspace('Once');
  const first = someEvents(0, 30);
  expect(await importEvents(ws, csvOf(first))).toMatchObject({ processed: 30, failed: 0 });
  const once = await stored(ws);
  expect(once).toHaveLength(30);

  // The same file again: through the live partitions and segments, nothing is added.
  expect(await importEvents(ws, csvOf(first))).toMatchObject({ processed: 30, failed: 0 });
  expect(await stored(ws)).toEqual(once);

  // An export overlapping the first by ten events, as NDJSON with the properties in another order.
  const overlapping = someEvents(20, 45);
  await importEvents(ws, ndjsonOf(overlapping), 'application/x-ndjson');
  const all = someEvents(0, 45);
  expect(await stored(ws)).toEqual(all.map(lineOf).sort());

  // A file that repeats its rows, within a chunk and across chunks and segments; then tracked twice.
  const repeating = someEvents(45, 50);
  await importEvents(ws, csvOf([...repeating, ...repeating, repeating[0], ...someEvents(40, 50)]));
  const batch = [...someEvents(48, 55), someEvents(54, 55)[0]];
  await track(ws, batch);
  await track(ws, batch);
  expect(await stored(ws)).toEqual(someEvents(0, 55).map(lineOf).sort());

  // The profile screen lists each event once.
  const profile = await call(t, 'GET', wsUrl(ws, 'profiles/p0'), manager);
  const events = profile.json().events as { at: string; event: string }[];
  expect(new Set(events.map((e) => `${e.event} ${e.at}`)).size).toBe(events.length);
  expect(events.length).toBe(someEvents(0, 55).filter((e) => e.profileId === 'p0').length);
});

it('two imports of one file at once store each event once', async () => {
  const ws = await workspace('At once');
  const events = someEvents(100, 140);
  await Promise.all([importEvents(ws, csvOf(events)), importEvents(ws, csvOf(events))]);
  await importEvents(ws, csvOf(someEvents(130, 150)));
  expect(await stored(ws)).toEqual(someEvents(100, 150).map(lineOf).sort());
});

it("a source's id is the event's identity: the same id once, whatever else changed; other ids apart", async () => {
  const ws = await workspace('Ids');
  const [a, b] = someEvents(200, 202);
  const withId = (e: Event, id: string, over: Partial<Event> = {}) => ({ ...e, ...over, id });
  // CSV with an `id` column: b twice under two ids is two events; a's id again a second later is a.
  await importEvents(ws, csvOf([withId(a, 'e-1'), withId(b, 'e-2'), withId(b, 'e-3')], true));
  await importEvents(
    ws,
    csvOf(
      [withId(a, 'e-1', { at: new Date(Date.parse(a.at) + 1000).toISOString() }), withId(b, 'e-2')],
      true,
    ),
  );
  expect(await stored(ws)).toEqual([lineOf(a), lineOf(b), lineOf(b)].sort());
  // The same ids tracked live and in NDJSON: nothing added; a new id is.
  await track(ws, [withId(a, 'e-1'), withId(b, 'e-3')]);
  await importEvents(ws, ndjsonOf([withId(a, 'e-4'), withId(b, 'e-2')]), 'application/x-ndjson');
  expect(await stored(ws)).toEqual([lineOf(a), lineOf(a), lineOf(b), lineOf(b)].sort());
  // An event's id is not one of its properties, and is refused when too long.
  const long = await call(t, 'POST', wsUrl(ws, 'customer-events'), manager, {
    events: [withId(a, 'x'.repeat(201))],
  });
  expect(long.statusCode).toBe(400);
});
