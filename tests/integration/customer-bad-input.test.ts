import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { UNSAFE_TEXT_MESSAGE } from '@server/http/input-guard';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace, type Team } from '../factories/items';
import { defineCustomerData, wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';
import { seedSend, type SeededSend } from '../factories/campaign-sends';
import { signedHeaders, webhookKeys } from '../fixtures/sendgrid-webhook';

/**
 * The customer-data, sending and campaign routes past their checks: NUL, lone surrogates, prototype
 * names, deep, huge and malformed JSON, wrong types and unknown ids in mappings, headers, profile
 * edits, suppressions, senders, campaign sends and the recipients' and providers' public routes get a
 * 4xx naming what is wrong, never a 5xx, and write nothing.
 */
let t: TestApp;
const sendgridKeys = webhookKeys();
let manager: TestUser;
let team: Team;
let campaignId: string;
let send: SeededSend;

beforeAll(async () => {
  t = await createTestApp({ sendgridWebhookPublicKey: sendgridKeys.publicKey });
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
  campaignId = (
    await sendableCampaign(t, manager, team.ws, [{ id: 'reader-1', email: 'reader@example.com' }])
  ).campaignId;
  send = await seedSend(t, team.ws, {
    campaignId,
    recipients: [{ profileId: 'reader-1', email: 'reader@example.com' }],
    links: ['https://shop.example.com/'],
  });
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

describe('bad input to campaigns and their public routes', () => {
  const raw = (method: 'GET' | 'POST', url: string, payload?: string, contentType = 'application/json') =>
    t.app.inject({
      method,
      url,
      headers: { ...manager.auth, ...(payload === undefined ? {} : { 'content-type': contentType }) },
      payload,
    });
  const campaignUrl = (rest: string, id = campaignId) => wsUrl(team.ws, `campaigns/${id}${rest}`);
  const count = async (table: string) =>
    rows<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where workspace_id = ${team.ws}`,
      ),
    )[0].n;
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

  it('sends and test sends: bodies of the wrong shape, NUL, deep, huge; ids unknown or malformed', async () => {
    const before = { sends: await count('campaign_sends'), tests: await count('test_sends') };
    const bodies: [string, number][] = [
      ['{"now":"yes"}', 400],
      ['{"now":"\\u0000"}', 400],
      ['{"recipients":["a\\u0000@example.com"]}', 400],
      ['{"recipients":"qa@example.com"}', 400],
      ['{"profileId":"\\ud800"}', 400],
      ['{"provider":"pigeon"}', 400],
      ['[]', 400],
      ['null', 400],
      [nested(100_000), 400],
      ['{', 400],
      [`{"profileId":"${'x'.repeat(2_000_000)}"}`, 413],
    ];
    for (const [body, status] of bodies) {
      for (const path of ['/send', '/test-send']) {
        const res = await raw('POST', campaignUrl(path), body);
        // /send takes only `now`: every other field is refused as unknown.
        expect([path, body.slice(0, 40), res.statusCode, res.body.slice(0, 200)]).toEqual([
          path,
          body.slice(0, 40),
          status,
          expect.stringContaining('"error"'),
        ]);
      }
    }
    const unknown = await raw('POST', campaignUrl('/test-send'), '{"profileId":"nobody"}');
    expect(unknown.statusCode).toBe(404);
    for (const [id, status] of [
      ['nope', 404],
      ['a%00b', 400],
      ['x'.repeat(65), 404],
      ['%ED%A0%80', 400],
    ] as const) {
      expect((await raw('POST', campaignUrl('/send', id), '{}')).statusCode, id).toBe(status);
      expect((await raw('GET', campaignUrl('/readiness', id))).statusCode, id).toBe(status);
      expect((await raw('GET', campaignUrl('/sends', id))).statusCode, id).toBe(status);
    }
    expect({ sends: await count('campaign_sends'), tests: await count('test_sends') }).toEqual(before);
  });

  it('previews, sends, results and pause, resume and cancel of unknown or malformed sends', async () => {
    for (const [query, status] of [
      ['profileId=%00', 400],
      ['profileId=a&profileId=b', 400],
      [`profileId=${'x'.repeat(201)}`, 400],
      ['profileId=nobody', 404],
    ] as const) {
      expect((await raw('GET', campaignUrl(`/preview?${query}`))).statusCode, query).toBe(status);
    }
    for (const [sendId, status] of [
      ['nope', 404],
      ['a%00', 400],
      ['%ED%A0%80', 400],
      ['x'.repeat(65), 404],
    ] as const) {
      expect((await raw('GET', campaignUrl(`/sends/${sendId}`))).statusCode, sendId).toBe(status);
      expect((await raw('GET', campaignUrl(`/sends/${sendId}/results`))).statusCode, sendId).toBe(status);
      for (const action of ['pause', 'resume', 'cancel']) {
        expect((await raw('POST', campaignUrl(`/sends/${sendId}/${action}`))).statusCode, sendId).toBe(
          status,
        );
      }
    }
    for (const action of ['explode', 'constructor', '__proto__', 'a%00']) {
      const res = await raw('POST', campaignUrl(`/sends/${send.id}/${action}`));
      expect(res.statusCode, action).toBeGreaterThanOrEqual(400);
      below500(res);
    }
    // A body where none is wanted changes nothing; the done send says why it cannot be paused.
    const paused = await raw('POST', campaignUrl(`/sends/${send.id}/pause`), `{"a":${nested(10)}}`);
    expect(paused.statusCode).toBe(409);
    const seeded = await call(t, 'GET', campaignUrl(`/sends/${send.id}`), manager);
    expect(seeded.json().state).toBe('done');
  });

  it('unsubscribe, open and click links that are not valid', async () => {
    const good = send.token('u', 1);
    const [payload, signature] = good.split('.');
    const tokens: [string, number][] = [
      ['x', 404],
      ['a.b', 404],
      [`${payload}.${signature}x`, 404],
      [`${payload}..${signature}`, 404],
      [`${Buffer.from('{"k":"u","w":1}').toString('base64url')}.${signature}`, 404],
      [send.token('o', 1), 404],
      ['%00', 400],
      ['%ED%A0%80', 400],
      ['x'.repeat(2000), 414],
    ];
    for (const [token, status] of tokens) {
      for (const [method, path, body, type] of [
        ['GET', `/u/${token}`],
        ['POST', `/u/${token}`, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded'],
        ['POST', `/u/${token}/resubscribe`, 'a\u0000b', 'text/plain'],
        ['GET', `/t/c/${token}`],
      ] as const) {
        const res = await raw(method, path, body, type);
        expect([path.slice(0, 60), res.statusCode]).toEqual([path.slice(0, 60), status]);
      }
    }
    expect((await raw('GET', `/t/o/${send.token('c', 1, 1)}`)).statusCode).toBe(404);
    // A good link with a body too deep to parse: refused before anything is recorded.
    expect((await raw('POST', `/u/${good}`, `{"a":${nested(100)}}`)).statusCode).toBe(400);
    const profile = await call(t, 'GET', wsUrl(team.ws, 'profiles/reader-1'), manager);
    expect(profile.json().consent.email.state).toBe('unknown');
  });

  it('provider hooks: malformed, deep, huge and NUL-holding reports', async () => {
    const token = send.token('u', 1);
    const post = (provider: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url: `/hooks/email/${provider}`,
        headers: { 'content-type': 'application/json', ...signedHeaders(sendgridKeys.privateKey, body) },
        payload: body,
      });
    for (const [provider, body, status] of [
      ['sendgrid', '{', 400],
      ['sendgrid', '{"event":"bounce"}', 400],
      ['sendgrid', nested(100_000), 200],
      ['sendgrid', 'x'.repeat(17 * 1024 * 1024), 413],
      ['smtp', '[]', 400],
      ['smtp', JSON.stringify({ token, recipient: 1, status: '5.1.1' }), 400],
      ['smtp', JSON.stringify({ token, recipient: 'reader@example.com', status: '5.1.1', x: 1 }), 400],
      ['smtp', nested(100_000), 400],
      ['x%00', '[]', 400],
      ['pigeon', '[]', 404],
    ] as const) {
      const res = await post(provider, body);
      expect([provider, body.slice(0, 30), res.statusCode]).toEqual([provider, body.slice(0, 30), status]);
    }
    expect(await count('customer_suppressions')).toBe(0);

    // Broke: a bounce whose diagnostic held a NUL answered 500 (the hook reads its body raw).
    const smtp = await post(
      'smtp',
      JSON.stringify({ token, recipient: 'reader@example.com', status: '5.1.1', diagnostic: 'no\u0000such' }),
    );
    expect(smtp.json()).toEqual({
      error: { code: 'invalid_request', message: `diagnostic: ${UNSAFE_TEXT_MESSAGE}` },
    });
    expect(await count('customer_suppressions')).toBe(0);

    // Broke: a SendGrid bounce whose reason held a NUL answered 500, and SendGrid posts a refused batch again.
    const sendgrid = await post(
      'sendgrid',
      JSON.stringify([{ event: 'bounce', marquee_token: token, reason: 'a\u0000b\ud800' }]),
    );
    expect(sendgrid.json()).toEqual({ received: 1, recorded: 1, ignored: 0 });
    const notes = rows<{ note: string }>(
      await t.database.db.execute(
        sql`select note from customer_suppressions where workspace_id = ${team.ws}`,
      ),
    );
    // A note is plain text: the NUL, a control character, becomes a space; the lone surrogate U+FFFD.
    expect(notes).toEqual([{ note: 'a b\ufffd' }]);
  });
});
