import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { UNDECLARED_LIMITS } from '@shared/api/undeclared';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, getItem, role, teamWorkspace, type Team } from '../factories/items';
import { wsUrl } from '../factories/customers';

/**
 * What websites send that a workspace has not declared: kept (checked for shape and size, bounded in
 * number), listed with counts and times, declared with one click through the items' own path; a
 * strict key refuses it as before. A new workspace declares nothing, so the browser script's own
 * calls depend on this.
 */
let t: TestApp;
let manager: TestUser;
let team: Team;
let analyst: TestUser;
let reader: TestUser;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Una Undeclared' });
  team = await teamWorkspace(t, manager, {
    name: 'Fresh shop',
    domains: ['marketing'],
    roles: {
      analyst: role('Analyst', { canEdit: ['customer-profile-attribute'] }),
      reader: role('Reader', {}),
    },
    people: { 'Ann Analyst': ['analyst'], 'Rita Reader': ['reader'] },
  });
  analyst = team.members['Ann Analyst'];
  reader = team.members['Rita Reader'];
  key = (await createKey()).key;
});
afterAll(() => t.close());

async function createKey(body: Record<string, unknown> = {}, ws = team.ws, user = manager) {
  const res = await call(t, 'POST', wsUrl(ws, 'write-keys'), user, { name: 'Website', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; key: string };
}

const send = (path: 'track' | 'identify' | 'batch', writeKey: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${path}`,
    headers: { authorization: `Bearer ${writeKey}` },
    payload,
  });

const profile = async (id: string) =>
  (await call(t, 'GET', wsUrl(team.ws, `profiles/${encodeURIComponent(id)}`), manager)).json();

const undeclared = async (user = manager) => {
  const res = await call(t, 'GET', wsUrl(team.ws, 'undeclared'), user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const declare = (body: object, user = manager) =>
  call(t, 'POST', wsUrl(team.ws, 'undeclared/declare'), user, body);

async function eventsOf(profileId: string) {
  return rows<{ event: string; properties: Record<string, unknown> }>(
    await t.database.db.execute(sql`
      select event, properties from customer_events
      where workspace_id = ${team.ws} and profile_id = ${profileId} order by event, at`),
  );
}

describe('a workspace that declares nothing', () => {
  it("keeps the browser script's own calls: page(), track() with properties, identify() with an email", async () => {
    // What marquee.page(), marquee.track() and marquee.identify() send, before and after the identify.
    const res = await send('batch', key, {
      batch: [
        { type: 'track', anonymousId: 'v-1', event: 'page-view', properties: { url: 'https://shop/' } },
        { type: 'track', anonymousId: 'v-1', event: 'signup', properties: { plan: 'pro', seats: 3 } },
        { type: 'identify', profileId: 'fresh-1', anonymousId: 'v-1', attributes: { email: 'a@x.io' } },
        { type: 'track', profileId: 'fresh-1', event: 'page_view', properties: { url: 'https://shop/p' } },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 4, rejected: 0, errors: [] });
    const detail = await profile('fresh-1');
    expect(detail.profile.attributes).toEqual({ email: 'a@x.io' });
    // page-view and page_view are one event; the visitor's events moved to the profile.
    expect(detail.events.map((e: { event: string }) => e.event).sort()).toEqual([
      'page-view',
      'page-view',
      'signup',
    ]);
    expect(await eventsOf('anon:v-1')).toEqual([]);

    const list = await undeclared();
    expect(list.events).toEqual([
      {
        key: 'page-view',
        count: 2,
        firstSeen: expect.any(String),
        lastSeen: expect.any(String),
        properties: [{ name: 'url', type: 'string', types: { string: 2 }, count: 2, ...times() }],
      },
      {
        key: 'signup',
        count: 1,
        ...times(),
        properties: [
          { name: 'plan', type: 'string', types: { string: 1 }, count: 1, ...times() },
          { name: 'seats', type: 'number', types: { number: 1 }, count: 1, ...times() },
        ],
      },
    ]);
    expect(list.attributes).toEqual([
      { key: 'email', type: 'string', types: { string: 1 }, count: 1, ...times() },
    ]);
    expect(list.limits).toEqual(UNDECLARED_LIMITS);
    expect(Date.parse(list.events[0].firstSeen)).toBeLessThanOrEqual(Date.parse(list.events[0].lastSeen));
  });

  it('keeps an undeclared email protected: set on a profile without one, never changed by a write key', async () => {
    await send('identify', key, { profileId: 'fresh-2', attributes: { email: 'first@x.io' } });
    const changed = await send('identify', key, {
      profileId: 'fresh-2',
      attributes: { email: 'evil@x.io', nickname: 'Bo' },
    });
    expect(changed.json()).toEqual({
      accepted: 1,
      rejected: 0,
      errors: [],
      refused: ['email'],
      refusals: [{ index: 0, attributes: ['email'] }],
    });
    expect((await profile('fresh-2')).profile.attributes).toEqual({ email: 'first@x.io', nickname: 'Bo' });
    const server = await createKey({ kind: 'server', name: 'Back office' });
    await send('identify', server.key, { profileId: 'fresh-2', attributes: { email: 'new@x.io' } });
    expect((await profile('fresh-2')).profile.attributes.email).toBe('new@x.io');
  });

  it("keeps the spec's analytics document with its url", async () => {
    const res = await send('track', key, { eventType: 'page-view', url: '/pricing', xmUser: 'doc-9' });
    expect(res.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    expect(await eventsOf('doc-9')).toEqual([{ event: 'page-view', properties: { url: '/pricing' } }]);
  });

  it('names keys as the ingestion does, and refuses values and names that cannot be kept', async () => {
    const res = await send('batch', key, {
      batch: [
        { profileId: 'shape-1', event: 'Signed Up', properties: { 'Referral Code': 'x1', at: '2026-03-04' } },
        { profileId: 'shape-1', event: 'cart', properties: { item: { sku: 'A' } } },
        { profileId: 'shape-1', event: 'cart', properties: { ids: [1, 2] } },
        { profileId: 'shape-1', event: 'cart', properties: { note: 'n'.repeat(2001) } },
        { profileId: 'shape-1', event: '!!!' },
        { type: 'identify', profileId: 'shape-1', attributes: { '42': 'x' } },
        {
          profileId: 'shape-1',
          event: 'cart',
          properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, i])),
        },
      ],
    });
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: 6,
      errors: [
        {
          index: 1,
          message:
            'item: an undeclared value is text, a number, true or false, a date or a list of text values',
        },
        {
          index: 2,
          message:
            'ids: an undeclared value is text, a number, true or false, a date or a list of text values',
        },
        { index: 3, message: 'note: an undeclared text is at most 2000 characters' },
        { index: 4, message: 'event "!!!" is not a key: letters, digits, _ and -, starting with a letter' },
        {
          index: 5,
          message: 'attribute "42" is not a key: letters, digits, _ and -, starting with a letter',
        },
        { index: 6, message: 'at most 50 undeclared properties in one message' },
      ],
    });
    expect(await eventsOf('shape-1')).toEqual([
      { event: 'signed-up', properties: { 'referral-code': 'x1', at: '2026-03-04T00:00:00.000Z' } },
    ]);
    const signedUp = (await undeclared()).events.find((e: { key: string }) => e.key === 'signed-up');
    expect(signedUp.properties.map((p: { name: string; type: string }) => `${p.name} ${p.type}`)).toEqual([
      'at date',
      'referral-code string',
    ]);
  });
});

describe('a declared event', () => {
  let checkoutId: string;
  beforeAll(async () => {
    checkoutId = (
      await createItem(t, manager, team.ws, 'behavioral-event', {
        name: 'Checkout',
        key: 'check_out',
        properties: [{ name: 'amount', type: 'number' }],
      })
    ).id;
  });

  it('takes an undeclared property beside its own, and answers to either spelling of its key', async () => {
    const res = await send('batch', key, {
      batch: [
        { profileId: 'buyer-1', event: 'check-out', properties: { amount: '12', coupon: 'SPRING' } },
        { profileId: 'buyer-1', event: 'check_out', properties: { amount: 'lots' } },
      ],
    });
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 1, message: 'amount: "lots" is not a number' }],
    });
    expect(await eventsOf('buyer-1')).toEqual([
      { event: 'check_out', properties: { amount: 12, coupon: 'SPRING' } },
    ]);
    const list = await undeclared();
    expect(list.properties).toEqual([
      { event: 'check_out', name: 'coupon', type: 'string', types: { string: 1 }, count: 1, ...times() },
    ]);
    expect(list.events.map((e: { key: string }) => e.key)).not.toContain('check-out');
  });

  it('declares the property with one click: the next version of the event, journaled', async () => {
    const res = await declare({ kind: 'property', event: 'check_out', name: 'coupon' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ schema: 'behavioral-event', id: checkoutId });
    const item = await getItem(t, manager, team.ws, 'behavioral-event', checkoutId);
    expect(item.version).toBe(2);
    expect(item.data.properties).toEqual([
      { name: 'amount', type: 'number' },
      { name: 'coupon', type: 'string' },
    ]);
    expect((await undeclared()).properties).toEqual([]);
    const audit = await auditOf(checkoutId);
    expect(audit).toEqual(['item.created Una Undeclared', 'item.saved Una Undeclared']);
    // Declared now: a coupon that is not text is refused with its reason.
    const wrong = await send('track', key, {
      profileId: 'buyer-1',
      event: 'check_out',
      properties: { coupon: 5 },
    });
    expect(wrong.json().errors).toEqual([{ index: 0, message: 'coupon: 5 is not text' }]);
  });
});

describe('declaring with one click', () => {
  it('declares an event with its properties and an attribute, each with the type inferred', async () => {
    await send('batch', key, {
      batch: [
        { profileId: 'decl-1', event: 'newsletter', properties: { topic: 'spring', opened: true } },
        { profileId: 'decl-1', event: 'newsletter', properties: { topic: 'summer', opened: false } },
        { type: 'identify', profileId: 'decl-1', attributes: { age: 41, interests: ['golf', 'sail'] } },
        { type: 'identify', profileId: 'decl-2', attributes: { age: '39', interests: ['golf', 'ski'] } },
        { type: 'identify', profileId: 'decl-3', attributes: { age: 40 } },
      ],
    });
    const list = await undeclared();
    expect(list.attributes.find((a: { key: string }) => a.key === 'age')).toMatchObject({
      type: 'number',
      types: { number: 2, string: 1 },
      count: 3,
    });

    const event = await declare({ kind: 'event', key: 'newsletter' });
    expect(event.statusCode, event.body).toBe(201);
    const eventItem = await getItem(t, manager, team.ws, 'behavioral-event', event.json().id);
    expect(eventItem.data).toMatchObject({
      name: 'Newsletter',
      key: 'newsletter',
      properties: [
        { name: 'opened', type: 'boolean' },
        { name: 'topic', type: 'string' },
      ],
    });
    const attribute = await declare({ kind: 'attribute', key: 'interests' }, analyst);
    expect(attribute.statusCode, attribute.body).toBe(201);
    const attributeItem = await getItem(
      t,
      manager,
      team.ws,
      'customer-profile-attribute',
      attribute.json().id,
    );
    expect(attributeItem.data).toMatchObject({
      name: 'Interests',
      key: 'interests',
      attributeType: 'array',
      options: ['golf', 'sail', 'ski'],
    });
    const after = await undeclared();
    expect(after.events.map((e: { key: string }) => e.key)).not.toContain('newsletter');
    expect(after.attributes.map((a: { key: string }) => a.key)).not.toContain('interests');
    // A name declared is refused a second time; one never seen is not found.
    expect((await declare({ kind: 'event', key: 'newsletter' })).statusCode).toBe(409);
    expect((await declare({ kind: 'attribute', key: 'never-sent' })).statusCode).toBe(404);
    expect((await declare({ kind: 'property', event: 'signup', name: 'plan' })).json().error.message).toBe(
      'Declare the event first: its undeclared properties come with it',
    );
  });

  it('needs the right to edit the definitions: 403 for members without it; 401 and 404 outside', async () => {
    const asAnalyst = await declare({ kind: 'event', key: 'signup' }, analyst);
    expect(asAnalyst.statusCode).toBe(403);
    expect(asAnalyst.json().error.message).toBe('You do not have permission to edit Behavioral Events');
    const asReader = await declare({ kind: 'attribute', key: 'nickname' }, reader);
    expect(asReader.statusCode).toBe(403);
    expect((await undeclared(reader)).abilities).toEqual({
      canDeclareEvents: false,
      canDeclareAttributes: false,
    });
    expect((await undeclared(analyst)).abilities).toEqual({
      canDeclareEvents: false,
      canDeclareAttributes: true,
    });
    expect((await undeclared()).events.map((e: { key: string }) => e.key)).toContain('signup');
    expect((await call(t, 'GET', wsUrl(team.ws, 'undeclared'))).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Sam Stranger' });
    expect((await call(t, 'GET', wsUrl(team.ws, 'undeclared'), stranger)).statusCode).toBe(404);
    expect((await declare({ kind: 'event', key: 'signup' }, stranger)).statusCode).toBe(404);
  });
});

describe('a strict write key', () => {
  it('refuses undeclared events, properties and attributes; managers switch it, journaled', async () => {
    const strict = await createKey({ name: 'Strict site', strict: true });
    const batch = {
      batch: [
        { profileId: 'strict-1', event: 'unheard-of' },
        { profileId: 'strict-1', event: 'check_out', properties: { amount: 3, gift: true } },
        { type: 'identify', profileId: 'strict-1', attributes: { shoeSize: 44 } },
        { eventType: 'check_out', url: '/cart', xmUser: 'strict-1' },
        { profileId: 'strict-1', event: 'check-out', properties: { amount: 3 } },
      ],
    };
    expect((await send('batch', strict.key, batch)).json()).toEqual({
      accepted: 1,
      rejected: 4,
      errors: [
        { index: 0, message: 'unknown event "unheard-of"' },
        { index: 1, message: 'unknown property "gift"' },
        { index: 2, message: 'unknown attribute "shoeSize"' },
        { index: 3, message: 'unknown property "url"' },
      ],
    });
    const keys = (await call(t, 'GET', wsUrl(team.ws, 'write-keys'), manager)).json().keys;
    expect(keys.find((k: { id: string }) => k.id === strict.id).strict).toBe(true);

    const url = wsUrl(team.ws, `write-keys/${strict.id}`);
    expect((await call(t, 'PATCH', url, analyst, { strict: false })).statusCode).toBe(403);
    expect(
      (await call(t, 'PATCH', wsUrl(team.ws, 'write-keys/nokey'), manager, { strict: false })).statusCode,
    ).toBe(404);
    expect((await call(t, 'PATCH', url, manager, { strict: 'no' })).statusCode).toBe(400);
    const relaxed = await call(t, 'PATCH', url, manager, { strict: false });
    expect(relaxed.statusCode, relaxed.body).toBe(200);
    expect(relaxed.json()).toMatchObject({ id: strict.id, strict: false });
    // The key was just read (and kept briefly): the change applies to the next request.
    expect((await send('batch', strict.key, batch)).json()).toMatchObject({ accepted: 5, rejected: 0 });
    const audit = rows<{ action: string; detail: Record<string, unknown> }>(
      await t.database.db.execute(sql`
        select action, detail from audit_log
        where workspace_id = ${team.ws} and target_id = ${strict.id} and action like 'write-key.%'
        order by id`),
    );
    expect(audit).toEqual([
      {
        action: 'write-key.created',
        detail: { name: 'Strict site', kind: 'write', origins: [], strict: true },
      },
      { action: 'write-key.updated', detail: { name: 'Strict site', strict: false } },
    ]);
  });
});

describe('the bound on undeclared names', () => {
  it('keeps up to the limit of names per workspace, then refuses new ones; declaring frees a place', async () => {
    const t2 = await teamWorkspace(t, manager, {
      name: 'Noisy site',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const noisy = await createKey({}, t2.ws);
    const names = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ profileId: 'noisy', event: `click-${from + i}` }));
    const first = await send('batch', noisy.key, { batch: names(0, UNDECLARED_LIMITS.event - 1) });
    expect(first.json()).toMatchObject({ accepted: UNDECLARED_LIMITS.event - 1, rejected: 0 });
    const next = await send('batch', noisy.key, {
      batch: [
        ...names(UNDECLARED_LIMITS.event - 1, UNDECLARED_LIMITS.event + 1),
        { profileId: 'noisy', event: 'click-0' },
      ],
    });
    expect(next.json()).toEqual({
      accepted: 2,
      rejected: 1,
      errors: [
        {
          index: 1,
          message: `unknown event "click-${UNDECLARED_LIMITS.event}": this workspace already keeps 100 undeclared events; declare them in Settings → Undeclared data`,
        },
      ],
    });
    const declared = await call(t, 'POST', wsUrl(t2.ws, 'undeclared/declare'), manager, {
      kind: 'event',
      key: 'click-0',
    });
    expect(declared.statusCode, declared.body).toBe(201);
    const again = await send('track', noisy.key, {
      profileId: 'noisy',
      event: `click-${UNDECLARED_LIMITS.event}`,
    });
    expect(again.json()).toMatchObject({ accepted: 1, rejected: 0 });
    const [{ n }] = rows<{ n: number | string }>(
      await t.database.db.execute(sql`
        select count(distinct name) as n from customer_undeclared where workspace_id = ${t2.ws} and kind = 'event'`),
    );
    expect(Number(n)).toBe(UNDECLARED_LIMITS.event + 1);
  });
});

const times = () => ({ firstSeen: expect.any(String), lastSeen: expect.any(String) });

async function auditOf(itemId: string) {
  return rows<{ action: string; user_name: string }>(
    await t.database.db.execute(sql`
      select action, user_name from audit_log
      where workspace_id = ${team.ws} and target_id = ${itemId} order by id`),
  ).map((row) => `${row.action} ${row.user_name}`);
}
