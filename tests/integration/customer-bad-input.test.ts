import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace, type Team } from '../factories/items';
import { defineCustomerData, wsUrl } from '../factories/customers';

/**
 * The customer-data and sending routes past their checks: NUL, lone surrogates, prototype names, deep
 * and malformed JSON in mappings, headers, profile edits, suppressions and senders get a 4xx naming
 * what is wrong, never a 5xx, and write nothing.
 */
let t: TestApp;
let manager: TestUser;
let team: Team;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Bea Bad-Input' });
  team = await teamWorkspace(t, manager, {
    name: 'Bad input',
    domains: ['marketing'],
    roles: {},
    people: {},
  });
  await defineCustomerData(t, manager, team.ws);
  const seeded = await t.app.inject({
    method: 'POST',
    url: wsUrl(team.ws, 'profiles/import'),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: 'id,city\nbad-1,Paris\n',
  });
  expect(seeded.statusCode).toBe(201);
});
afterAll(() => t.close());

const csv = (path: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: wsUrl(team.ws, path),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: body,
  });
const below500 = (res: { statusCode: number; body: string }) =>
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);

describe('bad input to customer data and sending', () => {
  it('mappings and headers with prototype names, NUL and deep JSON', async () => {
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    const mappings = [
      '{"columns":{"constructor":{"key":"constructor","type":"string"}}}',
      '{"columns":{"__proto__":{"key":"x1","type":"string"}}}',
      '{"columns":{"city":{"key":"bad\\u0000key","type":"string"}}}',
      '{"columns":{"city":{"key":"toString"}}}',
      deep,
      '{"columns":',
      '"a string"',
    ];
    for (const mapping of mappings) {
      const res = await csv(
        `profiles/import?mapping=${encodeURIComponent(mapping)}`,
        'id,constructor,__proto__,city\np9,a,b,c\n',
      );
      below500(res);
    }
    for (const header of ['id,constructor\np1,x\n', 'id,__proto__\np1,x\n', 'id,bad\u0000col\np1,x\n']) {
      below500(await csv('profiles/import/preview', header));
      below500(await csv('profiles/import', header));
    }
    below500(await csv('customer-events/import/preview', 'user_id,event_name,timestamp\n\u0000,x,y\n'));
  });

  it('profile edits, suppressions and senders', async () => {
    const read = await call(t, 'GET', wsUrl(team.ws, 'profiles/bad-1'), manager);
    const { updatedAt } = read.json().profile;
    for (const attributes of [
      { constructor: 'x' },
      JSON.parse('{"__proto__": "x"}') as Record<string, unknown>,
      { city: 'a\u0000b' },
      { city: '\ud800' },
      { city: { nested: true } },
    ]) {
      const res = await call(t, 'PATCH', wsUrl(team.ws, 'profiles/bad-1'), manager, {
        updatedAt,
        attributes,
      });
      below500(res);
      expect(res.statusCode, `${JSON.stringify(attributes ?? null)} ${res.body}`).toBeGreaterThanOrEqual(400);
    }
    expect(
      (await call(t, 'GET', wsUrl(team.ws, 'profiles/bad-1'), manager)).json().profile.attributes,
    ).toEqual({
      city: 'Paris',
    });
    for (const body of [
      { email: 'a\u0000@example.com' },
      { profileId: 'x\u0000' },
      { profileId: 'ok', note: 'n\ud800' },
      { constructor: 'x' },
    ]) {
      const res = await call(t, 'POST', wsUrl(team.ws, 'suppressions'), manager, body);
      below500(res);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBeGreaterThanOrEqual(400);
    }
    for (const body of [
      { fromName: 'A\u0000', fromAddress: 'a@example.com' },
      { fromName: 'A', fromAddress: 'a@exa\u0000mple.com' },
      { fromName: 'A', fromAddress: 'a@example.com', replyTo: '\ud800' },
    ]) {
      const res = await call(t, 'POST', wsUrl(team.ws, 'senders'), manager, body);
      below500(res);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBeGreaterThanOrEqual(400);
    }
  });
});
