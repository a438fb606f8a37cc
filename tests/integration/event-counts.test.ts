import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';
import {
  defineCustomerData,
  eventRule,
  group,
  importBody,
  sizeOf,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';

/**
 * The per-profile event counts (`customer_event_counts`) that all-time COUNT rules read: kept by every
 * way events are written (imports, repeated, and live tracking), equal to the events stored, and the
 * sizes they give exact at an asOf after, between and before the events.
 */
let t: TestApp;
let manager: TestUser;
let ws: string;
let defs: MarketingDefinitions;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Cora Counts' });
  ws = (await teamWorkspace(t, manager, { name: 'Counts', domains: ['marketing'], roles: {}, people: {} }))
    .ws;
  defs = await defineCustomerData(t, manager, ws);
  const profiles = ['id,age', 'a,30', 'b,40', 'c,50', 'd,60'].join('\n');
  expect((await importBody(t, manager, ws, 'profiles', 'text/csv', profiles)).statusCode).toBe(201);
});
afterAll(() => t.close());

/** The stored counts, and whether they equal the events stored (per workspace, event and profile). */
async function storedCounts() {
  const counts = rows<{ event: string; profile_id: string; count: number | string }>(
    await t.database.db.execute(sql`
      select event, profile_id, count from customer_event_counts where workspace_id = ${ws}
      order by event, profile_id`),
  ).map((r) => `${r.event} ${r.profile_id} ${Number(r.count)}`);
  const [{ mismatches }] = rows<{ mismatches: number | string }>(
    await t.database.db.execute(sql`
      select count(*) as mismatches
      from customer_event_counts r
      full join (select workspace_id, event, profile_id, count(*) as n from customer_events
                 group by workspace_id, event, profile_id) e
        on e.workspace_id = r.workspace_id and e.event = r.event and e.profile_id = r.profile_id
      where r.count is distinct from e.n`),
  );
  return { counts, mismatches: Number(mismatches) };
}

const visitsAtLeast = (count: number) =>
  group('and', [
    eventRule(defs, 'visit', {
      lookBackUnit: 'anytime',
      aggregator: 'COUNT',
      aggregatorCondition: '>=',
      aggregatorValue: count,
    }),
  ]);
const size = async (count: number, asOf: string) => {
  const res = await sizeOf(t, manager, ws, visitsAtLeast(count), asOf);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().size as number;
};

it('imports (one twice) and live tracking add to the counts; sizes are exact before, between and after the events', async () => {
  const csv = (second: string) =>
    [
      'profileId,event,at,amount,sku,page',
      `a,visit,2026-01-10T00:00:${second}Z,,,home`,
      `a,visit,2026-03-10T00:00:${second}Z,,,home`,
      `b,visit,2026-03-10T00:00:${second}Z,,,home`,
      `b,purchase,2026-03-11T00:00:${second}Z,5,A,`,
      `zz,visit,2026-03-12T00:00:${second}Z,,,home`,
    ].join('\n');
  // The same file twice stores its events once; the same events a second later are others.
  for (const second of ['00', '00', '01']) {
    const res = await importBody(t, manager, ws, 'customer-events', 'text/csv', csv(second));
    expect(res.json().batch).toMatchObject({ status: 'done', processed: 5, failed: 0 });
  }
  expect(await storedCounts()).toEqual({
    counts: ['purchase b 2', 'visit a 4', 'visit b 2', 'visit zz 2'],
    mismatches: 0,
  });

  const visit = (profileId: string, at: string) => ({ profileId, event: 'visit', at, properties: {} });
  const tracked = await call(t, 'POST', wsUrl(ws, 'customer-events'), manager, {
    events: [
      visit('c', '2026-02-01T00:00:00Z'),
      visit('c', '2026-05-01T00:00:00Z'),
      visit('b', '2026-05-01T00:00:00Z'),
    ],
  });
  expect(tracked.statusCode).toBe(200);
  // A refused batch writes no event and no count.
  const refused = await call(t, 'POST', wsUrl(ws, 'customer-events'), manager, {
    events: [visit('d', '2026-02-01T00:00:00Z'), { ...visit('d', '2026-02-01T00:00:00Z'), event: 'nope' }],
  });
  expect(refused.statusCode).toBe(400);
  expect(await storedCounts()).toEqual({
    counts: ['purchase b 2', 'visit a 4', 'visit b 3', 'visit c 2', 'visit zz 2'],
    mismatches: 0,
  });

  // After every event: the counts as stored (zz has no profile and is not counted).
  expect(await Promise.all([1, 2, 3, 4, 5].map((n) => size(n, '2026-12-01T00:00:00.000Z')))).toEqual([
    3, 3, 2, 1, 0,
  ]);
  // Between: a has 4 (Jan, Jan, Mar, Mar), b 2 (Mar, Mar; not May), c 1 (Feb; not May).
  expect(await Promise.all([1, 2, 3, 4, 5].map((n) => size(n, '2026-04-01T00:00:00.000Z')))).toEqual([
    3, 2, 1, 1, 0,
  ]);
  // On an event's instant it counts (at ≤ asOf); 1 ms before it does not.
  expect(await size(3, '2026-03-10T00:00:00.000Z')).toBe(1);
  expect(await size(3, '2026-03-09T23:59:59.999Z')).toBe(0);
  expect(await size(1, '2026-03-09T23:59:59.999Z')).toBe(2);
  // Before every event: nobody, and `<=` 0 matches every profile.
  expect(await size(1, '2025-12-31T00:00:00.000Z')).toBe(0);
  const none = group('and', [
    eventRule(defs, 'visit', { lookBackUnit: 'anytime', aggregatorCondition: '<=', aggregatorValue: 0 }),
  ]);
  expect((await sizeOf(t, manager, ws, none, '2025-12-31T00:00:00.000Z')).json()).toEqual({
    size: 4,
    profiles: 4,
  });
});
