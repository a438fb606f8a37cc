import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import type { Item } from '@shared/api/items';
import { call, createItem, itemUrl, saveItem, teamWorkspace, type Team } from '../factories/items';
import { importBody, wsUrl } from '../factories/customers';

/**
 * Protected attributes: the public write key may set one on a profile that has none but never change
 * it (email by default, others by their definition's flag), and says which it refused; a server key,
 * a secret refused from browsers and in the address, may change them.
 */
let t: TestApp;
let manager: TestUser;
let team: Team;
let writeKey: string;
let serverKey: string;
let tierId: string;
let emailItem: Item;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Pia Protect' });
  team = await teamWorkspace(t, manager, { name: 'Guarded', domains: ['marketing'], roles: {}, people: {} });
  emailItem = await createItem(t, manager, team.ws, 'customer-profile-attribute', {
    name: 'Email',
    key: 'email',
    attributeType: 'string',
  });
  await createItem(t, manager, team.ws, 'customer-profile-attribute', {
    name: 'Name',
    key: 'name',
    attributeType: 'string',
  });
  tierId = (
    await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: 'Tier',
      key: 'tier',
      attributeType: 'string',
      protected: true,
    })
  ).id;
  const csv = 'id,email,name,tier\nc-1,jane@example.com,Jane,gold\n';
  expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv)).statusCode).toBe(201);
  writeKey = (await createKey('Website')).key;
  serverKey = (await createKey('Back office', 'server')).key;
});
afterAll(() => t.close());

async function createKey(name: string, kind?: 'write' | 'server') {
  const res = await call(t, 'POST', wsUrl(team.ws, 'write-keys'), manager, {
    name,
    ...(kind ? { kind } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; key: string };
}

const send = (
  path: 'identify' | 'batch',
  key: string,
  payload: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${path}`,
    headers: { authorization: `Bearer ${key}`, ...headers },
    payload,
  });

const attributesOf = async (id: string) =>
  rows<{ attributes: Record<string, unknown> }>(
    await t.database.db.execute(
      sql`select attributes from customer_profiles where workspace_id = ${team.ws} and id = ${id}`,
    ),
  )[0]?.attributes;

describe('a write key', () => {
  it("cannot change a profile's email from no origin: 202 with the refusal named, other attributes set", async () => {
    const res = await send('identify', writeKey, {
      profileId: 'c-1',
      attributes: { email: 'attacker@evil.example', name: 'Janet' },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: 0,
      errors: [],
      refused: ['email'],
      refusals: [{ index: 0, attributes: ['email'] }],
    });
    expect(await attributesOf('c-1')).toEqual({ email: 'jane@example.com', name: 'Janet', tier: 'gold' });
  });

  it('cannot change an attribute its definition protects, in a batch either', async () => {
    const res = await send('batch', writeKey, {
      batch: [
        { type: 'identify', profileId: 'c-1', attributes: { name: 'Jan' } },
        { type: 'identify', profileId: 'c-1', attributes: { tier: 'platinum', email: 'x@evil.example' } },
      ],
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      accepted: 2,
      refused: ['email', 'tier'],
      refusals: [{ index: 1, attributes: ['email', 'tier'] }],
    });
    expect(await attributesOf('c-1')).toEqual({ email: 'jane@example.com', name: 'Jan', tier: 'gold' });
  });

  it('sets a protected attribute on a profile without one, once: a later change in the same request is refused', async () => {
    const res = await send('batch', writeKey, {
      batch: [
        { type: 'identify', profileId: 'new-1', attributes: { email: 'new@example.com' } },
        { type: 'identify', profileId: 'new-1', attributes: { email: 'other@evil.example' } },
      ],
    });
    expect(res.json()).toMatchObject({ accepted: 2, refused: ['email'], refusals: [{ index: 1 }] });
    expect(await attributesOf('new-1')).toEqual({ email: 'new@example.com' });
  });

  it('sending the value a profile has is no change and no refusal', async () => {
    const res = await send('identify', writeKey, {
      profileId: 'c-1',
      attributes: { email: 'jane@example.com' },
    });
    expect(res.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
  });

  it('may change an attribute whose definition switches the protection off, email included', async () => {
    // Saved without the flag, email was stored protected, as it is treated.
    expect(emailItem.data.protected).toBe(true);
    const { data, version } = emailItem;
    await saveItem(
      t,
      manager,
      team.ws,
      'customer-profile-attribute',
      emailItem.id,
      { ...data, protected: false },
      version,
    );
    const tier = await call(t, 'GET', itemUrl(team.ws, 'customer-profile-attribute', tierId), manager);
    expect(tier.json().data.protected).toBe(true);
    const res = await send('identify', writeKey, {
      profileId: 'c-1',
      attributes: { email: 'jane@new.example' },
    });
    expect(res.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    expect((await attributesOf('c-1'))?.email).toBe('jane@new.example');
  });
});

describe('a server key', () => {
  it('is made by managers only, with its own prefix and no origins', async () => {
    expect(serverKey).toMatch(/^mqs_/);
    const listed = (await call(t, 'GET', wsUrl(team.ws, 'write-keys'), manager)).json().keys;
    expect(listed.map((k: { name: string; kind: string }) => [k.name, k.kind])).toEqual([
      ['Website', 'write'],
      ['Back office', 'server'],
    ]);
    const withOrigins = await call(t, 'POST', wsUrl(team.ws, 'write-keys'), manager, {
      name: 'Bad',
      kind: 'server',
      origins: ['https://shop.example'],
    });
    expect(withOrigins.statusCode).toBe(400);
  });

  it('changes protected attributes', async () => {
    const res = await send('identify', serverKey, { profileId: 'c-1', attributes: { tier: 'silver' } });
    expect(res.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    expect((await attributesOf('c-1'))?.tier).toBe('silver');
  });

  it('is refused from a browser and in the address, and gets no CORS header', async () => {
    const fromPage = await send(
      'identify',
      serverKey,
      { profileId: 'c-1', attributes: { tier: 'x' } },
      {
        origin: 'https://shop.example',
      },
    );
    expect(fromPage.statusCode).toBe(403);
    expect(fromPage.json().error.message).toBe(
      'A server key may not be used from a browser: use a write key there',
    );
    expect(fromPage.headers['access-control-allow-origin']).toBeUndefined();
    const inQuery = await t.app.inject({
      method: 'POST',
      url: `/ingest/v1/identify?writeKey=${serverKey}`,
      payload: { profileId: 'c-1', attributes: { tier: 'x' } },
    });
    expect(inQuery.statusCode).toBe(401);
    expect((await attributesOf('c-1'))?.tier).toBe('silver');
  });
});
