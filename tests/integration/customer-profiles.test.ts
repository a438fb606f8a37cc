import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, role, teamWorkspace, type Team } from '../factories/items';
import {
  attributeRule,
  defineCustomerData,
  eventRule,
  group,
  importBody,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';
import { rows } from '../../src/server/db/migrate';

let t: TestApp;
let manager: TestUser;
let team: Team;
let importer: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let defs: MarketingDefinitions;

beforeAll(async () => {
  // Small segments, so a profile's events sit in the live partitions and in attached segments.
  t = await createTestApp({
    importChunkRows: 3,
    eventSegments: { directRows: 4, segmentRows: 8, maxSegments: 2 },
  });
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Profiles',
    domains: ['marketing'],
    roles: {
      analyst: role('Analyst', { canEdit: ['customer-profile-attribute'], customerData: ['read', 'erase'] }),
      viewer: role('Viewer', { canEdit: ['audience'], customerData: ['read'] }),
    },
    people: { 'Ann Analyst': ['analyst'], 'Val Viewer': ['viewer'] },
  });
  importer = team.members['Ann Analyst'];
  viewer = team.members['Val Viewer'];
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  defs = await defineCustomerData(t, manager, team.ws);
  await createItem(t, manager, team.ws, 'customer-profile-attribute', {
    name: 'Email address',
    key: 'email',
    attributeType: 'string',
  });
  const csv = [
    'id,email,city,age,emailConsent',
    'c-100,Jane.Doe@Example.com,Paris,41,subscribed',
    'c-200,john@sample.org,Rome,29,',
    'c-300,ada@example.com,Oslo,35,unsubscribed',
    'x-jane,other@else.net,Lyon,50,',
  ].join('\n');
  const imported = await importBody(t, importer, team.ws, 'profiles', 'text/csv', csv);
  expect(imported.json().batch, imported.body).toMatchObject({ processed: 4, failed: 0 });
  const events = ['profileId,event,at,page,amount'];
  for (let day = 1; day <= 12; day++) {
    events.push(`c-100,visit,2026-03-${String(day).padStart(2, '0')}T10:00:00Z,/p${day},`);
  }
  events.push('c-100,purchase,2026-03-05T10:00:00Z,,30', 'c-200,visit,2026-03-01T10:00:00Z,/home,');
  const res = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', events.join('\n'));
  expect(res.json().batch).toMatchObject({ processed: 14, failed: 0 });
});
afterAll(() => t.close());

const url = (rest: string) => wsUrl(team.ws, rest);
const get = async (user: TestUser, rest: string) => {
  const res = await call(t, 'GET', url(rest), user);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
};
const ids = (page: { profiles: { id: string }[] }) => page.profiles.map((p) => p.id);
const count = async (query: ReturnType<typeof sql>) =>
  Number(rows<{ n: string | number }>(await t.database.db.execute(query))[0].n);

describe('profile search', () => {
  it('finds profiles by id, email or any string attribute, in any case; the exact id first', async () => {
    expect(ids(await get(viewer, 'profiles?search=jane.doe@example'))).toEqual(['c-100']);
    expect(ids(await get(viewer, 'profiles?search=JANE'))).toEqual(['c-100', 'x-jane']);
    expect(ids(await get(viewer, 'profiles?search=example.com'))).toEqual(['c-100', 'c-300']);
    // A page that the first profiles by id fill comes from them.
    expect(ids(await get(viewer, 'profiles?search=example.com&limit=1'))).toEqual(['c-100']);
    expect(ids(await get(viewer, 'profiles?search=rome'))).toEqual(['c-200']);
    expect(ids(await get(viewer, 'profiles?search=x-jane'))).toEqual(['x-jane']);
    expect(ids(await get(viewer, 'profiles?search=nobody-here'))).toEqual([]);
    // LIKE's own characters are searched as text.
    expect(ids(await get(viewer, 'profiles?search=%25%25%25'))).toEqual([]);
    // Numbers are not string attributes.
    expect(ids(await get(viewer, 'profiles?search=41'))).toEqual([]);
  });

  it('pages ids that start with a search shorter than three characters', async () => {
    const first = await get(viewer, 'profiles?search=c-&limit=2');
    expect(ids(first)).toEqual(['c-100', 'c-200']);
    expect(ids(await get(viewer, `profiles?search=c-&limit=2&cursor=${first.nextCursor}`))).toEqual([
      'c-300',
    ]);
  });

  it('uses the trigram index', async () => {
    // The planner is told to avoid a scan of the table, as it would with a million profiles.
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rows<Record<string, string>>(
        await tx.execute(
          sql`explain select id from customer_profiles p where lower(p.id || ' ' || coalesce(jsonb_path_query_array(p.attributes, 'strict $.* ? (@.type() == "string")')::text, '')) like '%jane%'`,
        ),
      )
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    // Each partition's copy of customer_profiles_search_idx.
    expect(plan).toMatch(/Bitmap Index Scan on customer_profiles_p0_\w+ .*\n\s+Index Cond: \(lower\(/);
  });

  it('answers 401 without a session and 404 outside the workspace', async () => {
    for (const path of [
      'profiles?search=jane',
      'profiles/c-100',
      'profiles/c-100/events',
      'profiles/c-100/audiences',
      'suppressions',
    ]) {
      expect((await call(t, 'GET', url(path))).statusCode, path).toBe(401);
      expect((await call(t, 'GET', url(path), outsider)).statusCode, path).toBe(404);
    }
    expect((await call(t, 'POST', url('suppressions'), undefined, { email: 'a@b.example' })).statusCode).toBe(
      401,
    );
    expect((await call(t, 'POST', url('suppressions'), outsider, { email: 'a@b.example' })).statusCode).toBe(
      404,
    );
  });
});

describe('a profile', () => {
  it('shows attributes with their labels, consent and latest events', async () => {
    const detail = await get(viewer, 'profiles/c-100');
    expect(detail.profile.attributes).toEqual({
      email: 'Jane.Doe@Example.com',
      city: 'Paris',
      age: 41,
    });
    expect(detail.labels).toContainEqual({ key: 'email', label: 'Email address', type: 'string' });
    expect(detail.consent.email).toMatchObject({ state: 'subscribed', source: 'import' });
    expect(detail.consent.email.changedAt).not.toBeNull();
    expect(detail.events).toHaveLength(13);
    expect(detail.events[0]).toMatchObject({ event: 'visit', at: '2026-03-12T10:00:00.000Z' });
    expect(detail.abilities).toEqual({ canEdit: false });
    expect((await get(importer, 'profiles/c-100')).abilities).toEqual({ canEdit: true });
    expect((await get(viewer, 'profiles/c-200')).consent.email).toEqual({
      state: 'unknown',
      changedAt: null,
      source: null,
    });
    expect((await call(t, 'GET', url('profiles/nope'), viewer)).statusCode).toBe(404);
  });

  it('pages the timeline newest first, every event once, and filters by event', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: { event: string; at: string }[]; nextCursor: string | null } = await get(
        viewer,
        `profiles/c-100/events?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.events.map((e) => `${e.at.slice(5, 10)} ${e.event}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(13);
    expect(seen.slice(0, 2)).toEqual(['03-12 visit', '03-11 visit']);
    // Two events at the same instant, on either side of a page boundary or not, each come once.
    expect(seen.filter((e) => e.startsWith('03-05'))).toEqual(['03-05 purchase', '03-05 visit']);
    const purchases = await get(viewer, 'profiles/c-100/events?event=purchase');
    expect(purchases.events).toEqual([
      { event: 'purchase', at: '2026-03-05T10:00:00.000Z', properties: { amount: 30 } },
    ]);
    expect(purchases.nextCursor).toBeNull();
    expect((await call(t, 'GET', url('profiles/c-100/events?cursor=bad'), viewer)).statusCode).toBe(400);
  });

  it('pages through events at one instant', async () => {
    const same = ['profileId,event,at,page'];
    for (let n = 0; n < 7; n++) same.push(`c-300,visit,2026-04-01T00:00:00Z,/same${n}`);
    await importBody(t, importer, team.ws, 'customer-events', 'text/csv', same.join('\n'));
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: { properties: { page: string } }[]; nextCursor: string | null } = await get(
        viewer,
        `profiles/c-300/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      pages.push(...page.events.map((e) => e.properties.page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.sort()).toEqual(['/same0', '/same1', '/same2', '/same3', '/same4', '/same5', '/same6']);
  });

  it('lists the audiences the profile is in now', async () => {
    const paris = await createItem(t, manager, team.ws, 'audience', {
      name: 'Parisians',
      criteria: group('and', [attributeRule(defs, 'city', '==', 'Paris')]),
    });
    const buyers = await createItem(t, manager, team.ws, 'audience', {
      name: 'Buyers',
      criteria: group('and', [eventRule(defs, 'purchase', { lookBackUnit: 'days', lookBackValue: 100_000 })]),
    });
    await createItem(t, manager, team.ws, 'audience', {
      name: 'Seniors',
      criteria: group('and', [attributeRule(defs, 'age', '>=', 60)]),
    });
    expect((await get(viewer, 'profiles/c-100/audiences')).audiences).toEqual([
      { id: buyers.id, label: 'Buyers' },
      { id: paris.id, label: 'Parisians' },
    ]);
    expect((await get(viewer, 'profiles/c-200/audiences')).audiences).toEqual([]);
  });
});

describe('editing a profile', () => {
  it('lets a member who may import edit attributes and consent, journaled; refuses a stale edit', async () => {
    const before = (await get(importer, 'profiles/c-200')).profile;
    const res = await call(t, 'PATCH', url('profiles/c-200'), importer, {
      updatedAt: before.updatedAt,
      attributes: { city: 'Milan', age: '30', email: null },
      emailConsent: 'subscribed',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile.attributes).toEqual({ city: 'Milan', age: 30 });
    expect(res.json().consent.email).toMatchObject({ state: 'subscribed', source: 'member' });
    expect(res.json().profile.updatedAt).not.toBe(before.updatedAt);

    const stale = await call(t, 'PATCH', url('profiles/c-200'), importer, {
      updatedAt: before.updatedAt,
      attributes: { city: 'Turin' },
    });
    expect(stale.statusCode).toBe(409);
    expect((await get(viewer, 'profiles/c-200')).profile.attributes.city).toBe('Milan');

    const audit = await get(manager, 'audit?action=profile.updated');
    expect(audit.entries[0]).toMatchObject({
      targetType: 'profile',
      targetId: 'c-200',
      detail: { set: ['city', 'age'], removed: ['email'], emailConsent: 'subscribed' },
    });
  });

  it('refuses values that do not fit, unknown attributes, and members who may not import', async () => {
    const { updatedAt } = (await get(importer, 'profiles/c-200')).profile;
    const bad = await call(t, 'PATCH', url('profiles/c-200'), importer, {
      updatedAt,
      attributes: { age: 'old' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('attributes.age: "old" is not a number');
    const unknown = await call(t, 'PATCH', url('profiles/c-200'), importer, {
      updatedAt,
      attributes: { shoe: 42 },
    });
    expect(unknown.json().error.message).toBe('attributes.shoe: unknown attribute "shoe"');
    const consent = await call(t, 'PATCH', url('profiles/c-200'), importer, {
      updatedAt,
      emailConsent: 'maybe',
    });
    expect(consent.statusCode).toBe(400);
    const denied = await call(t, 'PATCH', url('profiles/c-200'), viewer, {
      updatedAt,
      attributes: { city: 'X' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to import customer data');
    expect((await call(t, 'PATCH', url('profiles/c-200'), undefined, { updatedAt })).statusCode).toBe(401);
    expect((await call(t, 'PATCH', url('profiles/c-200'), outsider, { updatedAt })).statusCode).toBe(404);
    expect((await call(t, 'PATCH', url('profiles/zz-none'), importer, { updatedAt })).statusCode).toBe(404);
    expect((await get(viewer, 'profiles/c-200')).profile.updatedAt).toBe(updatedAt);
  });

  it('takes consent from an import only when it changes', async () => {
    const before = (await get(viewer, 'profiles/c-300')).consent.email;
    const csv = ['id,emailConsent', 'c-300,Unsubscribed', 'c-200,unsure'].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', csv);
    expect(res.json().batch).toMatchObject({ processed: 1, failed: 1 });
    expect(res.json().batch.errors).toEqual([
      { line: 3, message: 'emailConsent: "unsure" is not subscribed, unsubscribed or unknown' },
    ]);
    expect((await get(viewer, 'profiles/c-300')).consent.email).toEqual(before);
    const ndjson = JSON.stringify({ id: 'c-300', emailConsent: 'subscribed' });
    await importBody(t, importer, team.ws, 'profiles', 'application/x-ndjson', ndjson);
    expect((await get(viewer, 'profiles/c-300')).consent.email).toMatchObject({
      state: 'subscribed',
      source: 'import',
    });
  });
});

describe('erasure and the suppression list', () => {
  const eventsOf = (id: string) =>
    count(sql`select count(*) as n from customer_events where profile_id = ${id}`);
  const countsOf = (id: string) =>
    count(sql`select count(*) as n from customer_event_counts where profile_id = ${id}`);

  it('erases a profile, its events in every partition and segment, and its counts, in one go', async () => {
    expect(await eventsOf('c-100')).toBe(13);
    expect(await countsOf('c-100')).toBe(2);
    // The import above put some of these events into segments of their own.
    expect(
      await count(
        sql`select count(distinct segment) as n from customer_events where workspace_id = ${team.ws}`,
      ),
    ).toBeGreaterThan(1);
    const denied = await call(t, 'DELETE', url('profiles/c-100'), viewer);
    expect(denied.statusCode, denied.body).toBe(403);
    expect((await call(t, 'DELETE', url('profiles/c-100'))).statusCode).toBe(401);
    expect((await call(t, 'DELETE', url('profiles/c-100'), outsider)).statusCode).toBe(404);

    const res = await call(t, 'DELETE', url('profiles/c-100?suppress=true'), importer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ erased: true, events: 13, suppressed: true });
    expect(await eventsOf('c-100')).toBe(0);
    expect(await countsOf('c-100')).toBe(0);
    expect((await call(t, 'GET', url('profiles/c-100'), viewer)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', url('profiles/c-100'), importer)).statusCode).toBe(404);
    // Other profiles keep theirs.
    expect(await eventsOf('c-200')).toBe(1);

    const [entry] = (await get(manager, 'audit?action=profile.erased')).entries;
    expect(entry).toMatchObject({ targetType: 'profile', detail: { events: 13, suppressed: true } });
    expect(JSON.stringify(entry)).not.toMatch(/c-100|jane|paris/i);
  });

  it('keeps a suppressed id out of a later import and of tracking, saying why', async () => {
    const list = await get(viewer, 'suppressions');
    expect(list.suppressions).toEqual([
      expect.objectContaining({
        profileId: 'c-100',
        email: null,
        reason: 'erased',
        createdByName: 'Ann Analyst',
      }),
    ]);
    expect(list.abilities).toEqual({ canManage: false });

    const csv = ['id,city', 'c-100,Paris', 'c-900,Nice'].join('\n');
    const res = await importBody(t, importer, team.ws, 'profiles', 'text/csv', csv);
    expect(res.json().batch).toMatchObject({ processed: 1, failed: 1 });
    expect(res.json().batch.errors).toEqual([
      { line: 2, message: 'profile "c-100" is on the suppression list: not written' },
    ]);
    const events = ['profileId,event,at', 'c-100,visit,2026-05-01T00:00:00Z'].join('\n');
    const eventsRes = await importBody(t, importer, team.ws, 'customer-events', 'text/csv', events);
    expect(eventsRes.json().batch).toMatchObject({ processed: 0, failed: 1 });
    const tracked = await call(t, 'POST', url('customer-events'), importer, {
      events: [
        { profileId: 'c-100', event: 'visit', at: '2026-05-02T00:00:00Z' },
        { profileId: 'c-900', event: 'visit', at: '2026-05-02T00:00:00Z' },
      ],
    });
    expect(tracked.json()).toEqual({
      accepted: 1,
      refused: [{ index: 0, message: 'profile "c-100" is on the suppression list: not written' }],
    });
    expect((await call(t, 'GET', url('profiles/c-100'), viewer)).statusCode).toBe(404);
    expect(await eventsOf('c-100')).toBe(0);
    expect(await eventsOf('c-900')).toBe(1);
  });

  it('erases without suppressing: the id can come back', async () => {
    const res = await call(t, 'DELETE', url('profiles/c-900'), importer, { suppress: false });
    expect(res.json()).toEqual({ erased: true, events: 1, suppressed: false });
    await importBody(t, importer, team.ws, 'profiles', 'text/csv', 'id,city\nc-900,Nice');
    expect((await get(viewer, 'profiles/c-900')).profile.attributes).toEqual({ city: 'Nice' });
  });

  it('lets a manager add and remove entries by hand; others may only read', async () => {
    const denied = await call(t, 'POST', url('suppressions'), importer, { email: 'x@y.example' });
    expect(denied.statusCode, denied.body).toBe(403);
    expect((await call(t, 'POST', url('suppressions'), manager, {})).statusCode).toBe(400);
    expect((await call(t, 'POST', url('suppressions'), manager, { email: 'not an email' })).statusCode).toBe(
      400,
    );
    const added = await call(t, 'POST', url('suppressions'), manager, {
      email: 'Bounce@Example.com',
      reason: 'bounced',
      note: 'hard bounce',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().suppression).toMatchObject({ email: 'bounce@example.com', reason: 'bounced' });
    const again = await call(t, 'POST', url('suppressions'), manager, { email: 'bounce@example.com' });
    expect(again.statusCode).toBe(409);
    const byHand = await call(t, 'POST', url('suppressions'), manager, { profileId: 'c-200' });
    expect(byHand.json().suppression).toMatchObject({ profileId: 'c-200', reason: 'manual' });

    const found = await get(manager, 'suppressions?search=BOUNCE');
    expect(found.suppressions.map((s: { email: string }) => s.email)).toEqual(['bounce@example.com']);
    const paged = await get(manager, 'suppressions?limit=2');
    expect(paged.suppressions).toHaveLength(2);
    expect(paged.abilities).toEqual({ canManage: true });
    const rest = await get(manager, `suppressions?limit=2&cursor=${paged.nextCursor}`);
    expect(rest.suppressions.map((s: { profileId: string }) => s.profileId)).toEqual(['c-100']);

    const id = byHand.json().suppression.id;
    expect((await call(t, 'DELETE', url(`suppressions/${id}`), importer)).statusCode).toBe(403);
    expect((await call(t, 'DELETE', url(`suppressions/${id}`), outsider)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', url(`suppressions/${id}`), manager)).statusCode).toBe(204);
    expect((await call(t, 'DELETE', url(`suppressions/${id}`), manager)).statusCode).toBe(404);
    const tracked = await call(t, 'POST', url('customer-events'), importer, {
      events: [{ profileId: 'c-200', event: 'visit', at: '2026-05-03T00:00:00Z' }],
    });
    expect(tracked.json()).toEqual({ accepted: 1 });
    const actions = (await get(manager, 'audit?limit=3')).entries.map((e: { action: string }) => e.action);
    expect(actions).toContain('suppression.removed');
  });
});
