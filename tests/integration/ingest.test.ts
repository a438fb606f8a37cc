import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
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
 * Events from websites and apps: write keys (wrong, revoked, another workspace's, another origin), the
 * per-key rate limit, accepted and rejected messages with their reasons, the anonymous visitor merged
 * into a profile (events and counts moved exactly, audience sizes right after) and the browser script.
 */
const RATE_LIMIT = 40;
let t: TestApp;
let manager: TestUser;
let team: Team;
let analyst: TestUser;
let defs: MarketingDefinitions;
let other: { ws: string; manager: TestUser };

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimit: RATE_LIMIT });
  manager = await verifiedUser(t, { name: 'Ivy Ingest' });
  team = await teamWorkspace(t, manager, {
    name: 'Shop',
    domains: ['marketing'],
    roles: { analyst: role('Analyst', { canEdit: ['customer-profile-attribute'] }) },
    people: { 'Ann Analyst': ['analyst'] },
  });
  analyst = team.members['Ann Analyst'];
  defs = await defineCustomerData(t, manager, team.ws);
  const otherManager = await verifiedUser(t, { name: 'Oscar Other' });
  const otherTeam = await teamWorkspace(t, otherManager, {
    name: 'Other shop',
    domains: ['marketing'],
    roles: {},
    people: {},
  });
  await defineCustomerData(t, otherManager, otherTeam.ws);
  other = { ws: otherTeam.ws, manager: otherManager };
});
afterAll(() => t.close());

async function createKey(ws = team.ws, user = manager, origins: string[] = [], strict = false) {
  const res = await call(t, 'POST', wsUrl(ws, 'write-keys'), user, { name: 'Website', origins, strict });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; key: string };
}

const send = (
  path: 'track' | 'identify' | 'batch',
  key: string | undefined,
  payload: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${path}`,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    payload: payload as object,
  });

const profile = async (id: string, ws = team.ws, user = manager) =>
  call(t, 'GET', wsUrl(ws, `profiles/${encodeURIComponent(id)}`), user);

async function eventsOf(profileId: string, ws = team.ws) {
  return rows<{ event: string; n: number | string }>(
    await t.database.db.execute(sql`
      select event, count(*) as n from customer_events
      where workspace_id = ${ws} and profile_id = ${profileId} group by event order by event`),
  ).map((r) => `${r.event} ${Number(r.n)}`);
}

async function countsOf(profileId: string, ws = team.ws) {
  return rows<{ event: string; count: number | string }>(
    await t.database.db.execute(sql`
      select event, count from customer_event_counts
      where workspace_id = ${ws} and profile_id = ${profileId} order by event`),
  ).map((r) => `${r.event} ${Number(r.count)}`);
}

/** Rows of customer_event_counts that differ from the events stored, over the whole database. */
async function countMismatches() {
  const [{ mismatches }] = rows<{ mismatches: number | string }>(
    await t.database.db.execute(sql`
      select count(*) as mismatches
      from customer_event_counts r
      full join (select workspace_id, event, profile_id, count(*) as n from customer_events
                 group by workspace_id, event, profile_id) e
        on e.workspace_id = r.workspace_id and e.event = r.event and e.profile_id = r.profile_id
      where r.count is distinct from e.n`),
  );
  return Number(mismatches);
}

const visit = (who: Record<string, string>, page = '/home') => ({
  type: 'track',
  ...who,
  event: 'visit',
  properties: { page },
});

describe('write keys', () => {
  it('are created by managers and shown once; the list has no secret; others are refused', async () => {
    const created = await createKey(team.ws, manager, ['https://shop.example/', 'http://127.0.0.1:3000']);
    expect(created.key).toMatch(/^mqw_/);
    const list = await call(t, 'GET', wsUrl(team.ws, 'write-keys'), manager);
    expect(list.statusCode).toBe(200);
    const summary = list.json().keys.find((k: { id: string }) => k.id === created.id);
    expect(summary).toMatchObject({
      name: 'Website',
      origins: ['https://shop.example', 'http://127.0.0.1:3000'],
      createdBy: 'Ivy Ingest',
      lastUsedAt: null,
    });
    expect(list.body).not.toContain(created.key);

    expect((await call(t, 'GET', wsUrl(team.ws, 'write-keys'), analyst)).statusCode).toBe(403);
    expect(
      (await call(t, 'POST', wsUrl(team.ws, 'write-keys'), analyst, { name: 'x', origins: [] })).statusCode,
    ).toBe(403);
    expect((await call(t, 'GET', wsUrl(team.ws, 'write-keys'))).statusCode).toBe(401);
    expect((await call(t, 'GET', wsUrl(team.ws, 'write-keys'), other.manager)).statusCode).toBe(404);
    const badOrigin = await call(t, 'POST', wsUrl(team.ws, 'write-keys'), manager, {
      name: 'Bad',
      origins: ['https://shop.example/cart'],
    });
    expect(badOrigin.statusCode).toBe(400);
    expect(badOrigin.json().error.message).toContain('"https://shop.example/cart" is not an origin');
    expect((await call(t, 'DELETE', wsUrl(team.ws, 'write-keys/nope'), manager)).statusCode).toBe(404);
  });

  it('refuses a missing, wrong or revoked key with 401 and writes nothing', async () => {
    const message = visit({ profileId: 'keyless' });
    const missing = await send('track', undefined, message);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.message).toBe(
      'A write key is required: send Authorization: Bearer mqw_… or ?writeKey=mqw_…',
    );
    expect((await send('track', 'mqw_not-a-key', message)).statusCode).toBe(401);
    // A delivery API key is not a write key.
    expect((await send('track', 'mq_abc', message)).statusCode).toBe(401);

    const { id, key } = await createKey();
    expect((await send('track', key, message)).statusCode).toBe(202);
    const revoked = await call(t, 'DELETE', wsUrl(team.ws, `write-keys/${id}`), manager);
    expect(revoked.json()).toEqual({ id, revoked: true });
    // The key was just looked up (and kept briefly): revocation drops it at once.
    const after = await send('track', key, visit({ profileId: 'keyless' }, '/after'));
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toBe('This write key is not valid or was revoked');
    expect(await eventsOf('keyless')).toEqual(['visit 1']);
  });

  it("writes into its own workspace only: another workspace's key never reaches this one", async () => {
    const { key: otherKey } = await createKey(other.ws, other.manager);
    const res = await send('batch', otherKey, {
      batch: [
        visit({ profileId: 'crossing' }),
        { eventType: 'visit', url: 'https://shop.example/', xmUser: 'crossing', xmWs: team.ws },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 1, message: 'xmWs: not the workspace of this write key' }],
    });
    expect(await eventsOf('crossing', other.ws)).toEqual(['visit 1']);
    expect(await eventsOf('crossing', team.ws)).toEqual([]);
    expect((await profile('crossing')).statusCode).toBe(404);
    expect((await profile('crossing', other.ws, other.manager)).statusCode).toBe(200);
  });

  it("answers browsers of the key's origins only: preflight, CORS headers and the Origin check", async () => {
    const { key } = await createKey(team.ws, manager, ['https://shop.example']);
    const allowed = { origin: 'https://shop.example' };
    const stranger = { origin: 'https://evil.example' };

    const preflight = (origin: string, query = `?writeKey=${key}`) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `/ingest/v1/batch${query}`,
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const ok = await preflight(allowed.origin);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(ok.headers['access-control-allow-methods']).toContain('POST');
    const refused = await preflight(stranger.origin);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const fromShop = await send('track', key, visit({ profileId: 'origin-1' }), allowed);
    expect(fromShop.statusCode).toBe(202);
    expect(fromShop.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(fromShop.headers.vary).toContain('Origin');

    const fromElsewhere = await send('track', key, visit({ profileId: 'origin-1' }, '/evil'), stranger);
    expect(fromElsewhere.statusCode).toBe(403);
    expect(fromElsewhere.json().error.message).toBe(
      'The origin https://evil.example may not send events with this write key',
    );
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();

    // Servers and apps send no Origin: the origins do not limit them.
    expect((await send('track', key, visit({ profileId: 'origin-1' }, '/server'))).statusCode).toBe(202);
    expect(await eventsOf('origin-1')).toEqual(['visit 2']);

    // A key without origins answers any page.
    const { key: open } = await createKey();
    const anywhere = await send('track', open, visit({ profileId: 'origin-2' }), stranger);
    expect(anywhere.statusCode).toBe(202);
    expect(anywhere.headers['access-control-allow-origin']).toBe('https://evil.example');
  });

  it('limits the events of a key per minute with 429, writing nothing of the refused request', async () => {
    const { key } = await createKey();
    const many = (n: number, page: string) =>
      ({
        batch: Array.from({ length: n }, (_, i) => visit({ profileId: 'limited' }, `${page}/${i}`)),
      }) as const;
    expect((await send('batch', key, many(RATE_LIMIT - 5, '/a'))).statusCode).toBe(202);
    const limited = await send('batch', key, many(6, '/b'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many events for this write key: wait and send them again',
    });
    expect(limited.json().error.details.retryAfter).toBeGreaterThan(0);
    expect((await send('batch', key, many(5, '/c'))).statusCode).toBe(202);
    expect((await send('track', key, visit({ profileId: 'limited' }))).statusCode).toBe(429);
    expect(await eventsOf('limited')).toEqual([`visit ${RATE_LIMIT}`]);
    // Another key has a minute of its own.
    const { key: second } = await createKey();
    expect((await send('track', second, visit({ profileId: 'limited' }))).statusCode).toBe(202);
  });
});

describe('messages', () => {
  it('accepts what fits, rejects the rest with reasons, and journals one audit row per request', async () => {
    // A strict key: what the workspace does not declare is refused too (a default key keeps it, below).
    const { id: keyId, key } = await createKey(team.ws, manager, [], true);
    const res = await send('batch', key, {
      batch: [
        {
          type: 'track',
          profileId: 'mixed-1',
          event: 'purchase',
          properties: { amount: '12.5', sku: 'A1' },
          at: '2026-01-02T03:04:05Z',
          id: 'order-1',
        },
        { profileId: 'mixed-1', event: 'refund' },
        { profileId: 'mixed-1', event: 'visit', properties: { colour: 'red' } },
        { profileId: 'mixed-1', event: 'purchase', properties: { amount: 'lots' } },
        { event: 'visit' },
        { profileId: 'anon:someone', event: 'visit' },
        { type: 'identify', profileId: 'mixed-1', attributes: { age: 41, shoeSize: 44 } },
        { eventType: 'visit', url: 'https://shop.example/', xmUser: 'mixed-1', data: { page: '/docs' } },
        { type: 'identify', profileId: 'mixed-1', attributes: { age: '42', city: 'Oslo' } },
        'not an object',
        { profileId: 'mixed-1', event: 'visit', extra: 1 },
        { type: 'page' },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      accepted: 2,
      rejected: 10,
      errors: [
        { index: 1, message: 'unknown event "refund"' },
        { index: 2, message: 'unknown property "colour"' },
        { index: 3, message: 'amount: "lots" is not a number' },
        { index: 4, message: 'profileId or anonymousId is required' },
        { index: 5, message: 'profileId: ids starting with "anon:" are kept for anonymous visitors' },
        { index: 6, message: 'unknown attribute "shoeSize"' },
        { index: 7, message: 'unknown property "url"' },
        { index: 9, message: 'a message must be an object' },
        { index: 10, message: 'unknown field "extra"' },
        { index: 11, message: 'type must be "track" or "identify"' },
      ],
    });
    const detail = (await profile('mixed-1')).json();
    expect(detail.profile.attributes).toEqual({ age: 42, city: 'Oslo' });
    expect(detail.events).toEqual([
      { event: 'purchase', at: '2026-01-02T03:04:05.000Z', properties: { amount: 12.5, sku: 'A1' } },
    ]);
    const audit = rows<{
      action: string;
      user_id: string;
      user_name: string;
      detail: Record<string, number>;
    }>(
      await t.database.db.execute(sql`
        select action, user_id, user_name, detail from audit_log
        where workspace_id = ${team.ws} and target_id = ${keyId} and action <> 'write-key.created'`),
    );
    expect(audit).toEqual([
      {
        action: 'customer-events.ingested',
        user_id: `write-key:${keyId}`,
        user_name: 'Website',
        detail: { events: 1, identified: 1, moved: 0, rejected: 10 },
      },
    ]);
  });

  it('keeps what the workspace does not declare with a default key, journaled with the rest', async () => {
    const { id: keyId, key } = await createKey();
    const res = await send('batch', key, {
      batch: [
        { profileId: 'kept-2', event: 'refund', properties: { amount: 3 } },
        { profileId: 'kept-2', event: 'visit', properties: { colour: 'red' } },
        { type: 'identify', profileId: 'kept-2', attributes: { age: 41, shoeSize: 44 } },
        { eventType: 'visit', url: 'https://shop.example/', xmUser: 'kept-2', data: { page: '/docs' } },
        { profileId: 'kept-2', event: 'purchase', properties: { amount: 'lots' } },
      ],
    });
    expect(res.json()).toEqual({
      accepted: 4,
      rejected: 1,
      errors: [{ index: 4, message: 'amount: "lots" is not a number' }],
    });
    const detail = (await profile('kept-2')).json();
    expect(detail.profile.attributes).toEqual({ age: 41, shoeSize: 44 });
    expect(
      detail.events.map((e: { event: string; properties: object }) => [e.event, e.properties]).sort(),
    ).toEqual([
      ['refund', { amount: 3 }],
      ['visit', { colour: 'red' }],
      ['visit', { page: '/docs', url: 'https://shop.example/' }],
    ]);
    const [audit] = rows<{ detail: Record<string, number> }>(
      await t.database.db.execute(sql`
        select detail from audit_log
        where workspace_id = ${team.ws} and target_id = ${keyId} and action = 'customer-events.ingested'`),
    );
    // Four names undeclared: the event refund with its amount, the property colour and url of visit,
    // the attribute shoeSize.
    expect(audit.detail).toEqual({ events: 3, identified: 1, moved: 0, rejected: 1, undeclared: 5 });
  });

  it('keeps an erased customer on the suppression list out: its tracks and identifies are rejected', async () => {
    const { key } = await createKey();
    await send('track', key, visit({ profileId: 'erased-1' }, '/before'));
    const erased = await call(t, 'DELETE', wsUrl(team.ws, 'profiles/erased-1?suppress=true'), manager);
    expect(erased.statusCode, erased.body).toBe(200);
    const res = await send('batch', key, {
      batch: [
        visit({ profileId: 'erased-1' }, '/after'),
        { type: 'identify', profileId: 'erased-1', anonymousId: 'visitor-9', attributes: { city: 'Oslo' } },
        visit({ profileId: 'kept-1' }),
      ],
    });
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: 2,
      errors: [
        { index: 0, message: 'profile "erased-1" is on the suppression list: not written' },
        { index: 1, message: 'profile "erased-1" is on the suppression list: not written' },
      ],
    });
    expect(await eventsOf('erased-1')).toEqual([]);
    expect((await profile('erased-1')).statusCode).toBe(404);
    expect(await eventsOf('kept-1')).toEqual(['visit 1']);
  });

  it("takes the spec's analytics event document as a track, and text/plain bodies with ?writeKey=", async () => {
    const { key } = await createKey();
    const res = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/track?writeKey=${encodeURIComponent(key)}`,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({
        eventType: 'visit',
        url: '/pricing',
        xmUser: 'doc-1',
        xmSession: 's1',
        xmWs: team.ws,
      }),
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    expect(await eventsOf('doc-1')).toEqual(['visit 1']);
    // A strict key refuses the url the event does not declare, until it does.
    const { key: strict } = await createKey(team.ws, manager, [], true);
    const refused = await send('track', strict, { eventType: 'visit', url: '/pricing', xmUser: 'doc-1' });
    expect(refused.json().errors).toEqual([{ index: 0, message: 'unknown property "url"' }]);
    // With an event whose property named url is declared, the document is stored.
    const document = { eventType: 'page-view', url: '/pricing', xmUser: 'doc-1' };
    const { createItem } = await import('../factories/items');
    await createItem(t, manager, team.ws, 'behavioral-event', {
      name: 'Page view',
      key: 'page-view',
      properties: [{ name: 'url', type: 'string' }],
    });
    const stored = await send('track', strict, document);
    expect(stored.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const signedOut = await send('track', key, {
      eventType: 'page-view',
      url: '/',
      xmUser: '__anonymous',
      xmSession: 's-77',
    });
    expect(signedOut.json().accepted).toBe(1);
    expect(await eventsOf('doc-1')).toEqual(['page-view 1', 'visit 1']);
    expect(await eventsOf('anon:s-77')).toEqual(['page-view 1']);

    const malformed = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/batch?writeKey=${encodeURIComponent(key)}`,
      headers: { 'content-type': 'text/plain' },
      payload: '{"batch": [',
    });
    expect(malformed.statusCode).toBe(400);
    const tooMany = await send('batch', key, { batch: Array.from({ length: 501 }, () => ({})) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toContain('at most 500 messages');
    expect((await send('track', key, ['a list'])).statusCode).toBe(400);
  });

  it('refuses profile ids kept for anonymous visitors in imports too', async () => {
    const csv = ['id,age', 'anon:abc,30', 'real,31'].join('\n');
    const res = await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv);
    expect(res.json().batch.errors).toEqual([
      { line: 2, message: 'id: ids starting with "anon:" are kept for anonymous visitors' },
    ]);
  });
});

describe('bad input', () => {
  it('never reaches a 5xx: NUL, lone surrogates, deep nesting, prototype keys, huge and malformed bodies', async () => {
    const { key } = await createKey();
    const deep = `{"type":"track","profileId":"p-bad","event":"visit","properties":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const messages: unknown[] = [
      visit({ profileId: 'nul\u0000id' }),
      visit({ profileId: 'lone\ud800' }),
      { type: 'track', profileId: 'p-bad', event: 'visit', properties: { page: 'x\u0000y' } },
      { type: 'track', profileId: 'x'.repeat(100_000), event: 'visit', properties: {} },
      { type: 'track', profileId: 'p-bad', event: 'visit', at: 'not a date', properties: {} },
      { type: 'track', profileId: 'p-bad', event: 'visit', id: 'i'.repeat(500), properties: {} },
      null,
      'a string',
      [1, 2],
    ];
    for (const message of messages) {
      const res = await send('track', key, message);
      expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.statusCode === 202 ? res.json().rejected : 1).toBeGreaterThan(0);
    }
    const batch = await send('batch', key, { batch: messages });
    expect(batch.statusCode, batch.body.slice(0, 200)).toBeLessThan(500);
    const nested = await t.app.inject({
      method: 'POST',
      url: '/ingest/v1/track',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(nested.statusCode, nested.body.slice(0, 200)).toBeGreaterThanOrEqual(400);
    expect(nested.statusCode).toBeLessThan(500);
    for (const body of [
      '{"batch": [',
      'null',
      '[]',
      '{"batch": "x"}',
      `{"batch": [${'{},'.repeat(600)}{}]}`,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/ingest/v1/batch',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.statusCode, `${body.slice(0, 20)}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await eventsOf('p-bad')).toEqual([]);
  });

  // The body parser refuses "__proto__" keys (400) before any message is read.
  it('keeps undeclared keys named like prototype members as plain keys of their own', async () => {
    const { key } = await createKey();
    const res = await send('batch', key, {
      batch: [
        { profileId: 'p-proto', event: 'visit', properties: { constructor: 'x', hasOwnProperty: 'y' } },
        { profileId: 'p-proto', event: '__proto__', properties: {} },
        { type: 'identify', profileId: 'p-proto', attributes: { constructor: 1, toString: 'x' } },
      ],
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(202);
    expect(res.json()).toEqual({ accepted: 3, rejected: 0, errors: [] });
    const detail = (await profile('p-proto')).json();
    expect(detail.profile.attributes).toEqual({ constructor: 1, toString: 'x' });
    // An event "__proto__" is not a key: as the ingestion names keys it is "proto".
    expect(
      detail.events.map((e: { event: string; properties: object }) => [e.event, e.properties]).sort(),
    ).toEqual([
      ['proto', {}],
      ['visit', { constructor: 'x', hasOwnProperty: 'y' }],
    ]);
  });
});

describe('an anonymous visitor becoming a known profile', () => {
  const visitsAtLeast = (count: number) =>
    group('and', [
      eventRule(defs, 'visit', {
        lookBackUnit: 'anytime',
        aggregator: 'COUNT',
        aggregatorCondition: '>=',
        aggregatorValue: count,
      }),
    ]);

  it('moves its events and their counts exactly, and audience sizes count them at once', async () => {
    const { key } = await createKey();
    const known = await send('batch', key, {
      batch: [visit({ profileId: 'merge-known' }, '/a'), { type: 'identify', profileId: 'merge-other' }],
    });
    expect(known.json().accepted).toBe(2);
    const anonymous = await send('batch', key, {
      batch: [
        visit({ anonymousId: 'visitor-1' }, '/b'),
        visit({ anonymousId: 'visitor-1' }, '/c'),
        visit({ anonymousId: 'visitor-1' }, '/d'),
        { type: 'track', anonymousId: 'visitor-1', event: 'purchase', properties: { amount: 9 } },
        visit({ anonymousId: 'visitor-2' }, '/e'),
      ],
    });
    expect(anonymous.json()).toMatchObject({ accepted: 5, rejected: 0 });
    expect(await countsOf('anon:visitor-1')).toEqual(['purchase 1', 'visit 3']);
    // Anonymous visitors are not profiles: no audience counts them yet.
    const before = (await sizeOf(t, manager, team.ws, visitsAtLeast(4))).json();

    const identified = await send('identify', key, {
      profileId: 'merge-known',
      anonymousId: 'visitor-1',
      attributes: { city: 'Paris' },
    });
    expect(identified.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });

    expect(await eventsOf('merge-known')).toEqual(['purchase 1', 'visit 4']);
    expect(await countsOf('merge-known')).toEqual(['purchase 1', 'visit 4']);
    expect(await eventsOf('anon:visitor-1')).toEqual([]);
    expect(await countsOf('anon:visitor-1')).toEqual([]);
    expect(await countsOf('anon:visitor-2')).toEqual(['visit 1']);
    expect(await countMismatches()).toBe(0);
    const detail = (await profile('merge-known')).json();
    expect(detail.profile.attributes).toEqual({ city: 'Paris' });
    expect(detail.events.map((e: { properties: { page?: string } }) => e.properties.page).sort()).toEqual([
      '/a',
      '/b',
      '/c',
      '/d',
      undefined,
    ]);

    const after = (await sizeOf(t, manager, team.ws, visitsAtLeast(4))).json();
    expect(after).toEqual({ size: before.size + 1, profiles: before.profiles });

    // Identifying again moves nothing twice.
    await send('identify', key, { profileId: 'merge-known', anonymousId: 'visitor-1' });
    expect(await countsOf('merge-known')).toEqual(['purchase 1', 'visit 4']);
  });

  it("moves a visitor's events sent in the same batch as the identify", async () => {
    const { key } = await createKey();
    const res = await send('batch', key, {
      batch: [
        visit({ anonymousId: 'visitor-3' }),
        { type: 'identify', profileId: 'merge-batch', anonymousId: 'visitor-3' },
        visit({ profileId: 'merge-batch' }, '/known'),
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 3, rejected: 0 });
    expect(await countsOf('merge-batch')).toEqual(['visit 2']);
    expect(await eventsOf('anon:visitor-3')).toEqual([]);
    expect(await countMismatches()).toBe(0);
  });

  it('keeps an event sent both before and after the identify (the same id) once', async () => {
    const { key } = await createKey();
    const again = { event: 'purchase', properties: { amount: 5 }, id: 'order-77' };
    await send('track', key, { ...again, anonymousId: 'visitor-4' });
    await send('track', key, visit({ anonymousId: 'visitor-4' }, '/cart'));
    // The page retried after the identify: the same order, now under the profile.
    await send('track', key, { ...again, profileId: 'merge-retry' });
    await send('identify', key, { profileId: 'merge-retry', anonymousId: 'visitor-4' });
    expect(await eventsOf('merge-retry')).toEqual(['purchase 1', 'visit 1']);
    expect(await countsOf('merge-retry')).toEqual(['purchase 1', 'visit 1']);
    expect(await eventsOf('anon:visitor-4')).toEqual([]);
    expect(await countMismatches()).toBe(0);
  });
});

describe('the browser script', () => {
  it('is served to any origin, cached by ETag, under 5 KB gzip, without eval', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sdk/marquee.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const gzipped = zlib.gzipSync(res.body, { level: 9 }).length;
    expect(gzipped).toBeLessThan(5 * 1024);
    expect(res.body).not.toMatch(/\beval\(|new Function|setTimeout\(['"`]/);
    expect(res.body).toContain('/ingest/v1/batch');
    const again = await t.app.inject({
      method: 'GET',
      url: '/sdk/marquee.js',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: '/ingest/v1/nothing' })).statusCode).toBe(404);
  });
});
