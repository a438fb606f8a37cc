import { and, count, eq, like } from 'drizzle-orm';
import { generate } from 'otplib';
import { auditLog, recoveryCodes, users } from '@server/db/schema';
import { TWO_FACTOR_MESSAGES } from '@shared/api/two-factor';
import { MESSAGES } from '@shared/api/errors';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { teamWorkspace } from '../factories/items';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object | undefined, auth?: { authorization: string }) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: auth ?? {},
    ...(payload ? { payload } : {}),
  });
const get = (url: string, auth?: { authorization: string }) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: auth ?? {} });

/** A code of the secret's step `steps` periods from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Date.now() / 1000 + steps * 30 });

async function setUp(user: TestUser) {
  const setup = await post('/auth/two-factor/setup', undefined, user.auth);
  expect(setup.statusCode).toBe(200);
  const { secret, uri } = setup.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(`secret=${secret}`);
  const enabled = await post('/auth/two-factor/enable', { code: await codeAt(secret) }, user.auth);
  expect(enabled.statusCode).toBe(200);
  return { secret: secret as string, recoveryCodes: enabled.json().recoveryCodes as string[] };
}

const passwordStep = async (user: TestUser) => {
  const res = await post('/auth/sign-in', { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  return res.json() as { twoFactorRequired?: true; pendingToken?: string; token?: string };
};

const auditActions = async (userId: string) =>
  (
    await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, userId), like(auditLog.action, 'two-factor.%')))
      .orderBy(auditLog.id)
  ).map((row) => row.action);

const userRow = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0];

describe('setting up two-factor sign-in', () => {
  it('seals the secret, enables it only with a valid current code and shows ten recovery codes once', async () => {
    const ada = await verifiedUser(t, { name: 'Ada Totp' });
    await teamWorkspace(t, ada, { name: 'Ada TOTP team', roles: {}, people: {} });
    const { secret } = (await post('/auth/two-factor/setup', undefined, ada.auth)).json();
    const row = await userRow(ada.id);
    expect(row.totpSecret).toBeTruthy();
    expect(row.totpSecret).not.toContain(secret);
    expect((await get('/auth/two-factor', ada.auth)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });

    const wrong = await post('/auth/two-factor/enable', { code: '000000' }, ada.auth);
    expect(wrong.statusCode).toBe(401);
    const expired = await post('/auth/two-factor/enable', { code: await codeAt(secret, -3) }, ada.auth);
    expect(expired.statusCode).toBe(401);
    expect((await userRow(ada.id)).totpEnabledAt).toBeNull();
    expect((await passwordStep(ada)).token).toBeTruthy();

    const enabled = await post('/auth/two-factor/enable', { code: await codeAt(secret) }, ada.auth);
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, ada.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    expect((await get('/auth/two-factor', ada.auth)).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    expect((await post('/auth/two-factor/setup', undefined, ada.auth)).statusCode).toBe(409);
    expect(await auditActions(ada.id)).toEqual(['two-factor.enabled']);
  });
});

describe('signing in with two-factor', () => {
  it('asks a second step after the password and starts a session only once a code is checked', async () => {
    const bob = await verifiedUser(t, { name: 'Bob Totp' });
    const { secret } = await setUp(bob);
    const first = await passwordStep(bob);
    expect(first).toEqual({ twoFactorRequired: true, pendingToken: expect.any(String), methods: ['totp'] });
    expect(first.token).toBeUndefined();

    // The code enable took is spent, and one of an earlier step never counts.
    const replayed = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      code: await codeAt(secret),
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error.message).toBe(TWO_FACTOR_MESSAGES.badCode);
    const expired = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      code: await codeAt(secret, -3),
    });
    expect(expired.statusCode).toBe(401);
    const wrong = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      code: '123456',
    });
    expect(wrong.statusCode).toBe(401);

    const next = await codeAt(secret, 1);
    const done = await post('/auth/sign-in/two-factor', { pendingToken: first.pendingToken, code: next });
    expect(done.statusCode).toBe(200);
    const session = { authorization: `Bearer ${done.json().token}` };
    expect((await get('/me', session)).json().user.id).toBe(bob.id);

    // The pending token is single-use, and the same code in its window is refused for another one.
    const again = await post('/auth/sign-in/two-factor', { pendingToken: first.pendingToken, code: next });
    expect(again.statusCode).toBe(400);
    const second = await passwordStep(bob);
    const replay = await post('/auth/sign-in/two-factor', { pendingToken: second.pendingToken, code: next });
    expect(replay.statusCode).toBe(401);
  });

  it('takes each recovery code once', async () => {
    const cy = await verifiedUser(t, { name: 'Cy Totp' });
    await teamWorkspace(t, cy, { name: 'Cy TOTP team', roles: {}, people: {} });
    const { recoveryCodes: codes } = await setUp(cy);
    const first = await passwordStep(cy);
    const used = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      recoveryCode: codes[0].toUpperCase(),
    });
    expect(used.statusCode).toBe(200);
    const second = await passwordStep(cy);
    const reused = await post('/auth/sign-in/two-factor', {
      pendingToken: second.pendingToken,
      recoveryCode: codes[0],
    });
    expect(reused.statusCode).toBe(401);
    const other = await post('/auth/sign-in/two-factor', {
      pendingToken: second.pendingToken,
      recoveryCode: codes[1],
    });
    expect(other.statusCode).toBe(200);
    expect((await get('/auth/two-factor', cy.auth)).json().recoveryCodesLeft).toBe(8);
    expect(await auditActions(cy.id)).toEqual([
      'two-factor.enabled',
      'two-factor.recovery-code-used',
      'two-factor.recovery-code-used',
    ]);
  });

  it('refuses a forged or expired pending token', async () => {
    const dee = await verifiedUser(t, { name: 'Dee Totp' });
    const { secret } = await setUp(dee);
    const { pendingToken } = await passwordStep(dee);
    const tampered = `${pendingToken!.slice(0, -2)}AA`;
    const forged = await post('/auth/sign-in/two-factor', {
      pendingToken: tampered,
      code: await codeAt(secret, 1),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe(TWO_FACTOR_MESSAGES.badChallenge);
    vi.useFakeTimers({ now: Date.now() + 6 * 60_000, toFake: ['Date'] });
    try {
      const late = await post('/auth/sign-in/two-factor', { pendingToken, code: await codeAt(secret) });
      expect(late.statusCode).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rate limits wrong codes like password attempts', async () => {
    const eve = await verifiedUser(t, { name: 'Eve Totp' });
    const { secret } = await setUp(eve);
    const { pendingToken } = await passwordStep(eve);
    for (let i = 0; i < 10; i++)
      expect((await post('/auth/sign-in/two-factor', { pendingToken, code: '000000' })).statusCode).toBe(401);
    const locked = await post('/auth/sign-in/two-factor', { pendingToken, code: await codeAt(secret, 1) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe(TWO_FACTOR_MESSAGES.lockedOut);
  });
});

describe('managing two-factor sign-in', () => {
  it('regenerates recovery codes and turns off with a code or the password', async () => {
    const fay = await verifiedUser(t, { name: 'Fay Totp' });
    await teamWorkspace(t, fay, { name: 'Fay TOTP team', roles: {}, people: {} });
    const { secret, recoveryCodes: old } = await setUp(fay);
    const regenerated = await post(
      '/auth/two-factor/recovery-codes',
      { code: await codeAt(secret, 1) },
      fay.auth,
    );
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json().recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    const { pendingToken } = await passwordStep(fay);
    expect((await post('/auth/sign-in/two-factor', { pendingToken, recoveryCode: old[0] })).statusCode).toBe(
      401,
    );

    const wrongPassword = await post('/auth/two-factor/disable', { password: 'not the password' }, fay.auth);
    expect(wrongPassword.statusCode).toBe(401);
    expect((await post('/auth/two-factor/disable', { password: fay.password }, fay.auth)).statusCode).toBe(
      200,
    );
    const row = await userRow(fay.id);
    expect(row.totpSecret).toBeNull();
    expect(row.totpEnabledAt).toBeNull();
    expect((await passwordStep(fay)).token).toBeTruthy();
    expect(await auditActions(fay.id)).toEqual([
      'two-factor.enabled',
      'two-factor.recovery-codes-regenerated',
      'two-factor.disabled',
    ]);
    const again = await setUp(fay);
    const off = await post('/auth/two-factor/disable', { code: await codeAt(again.secret, 1) }, fay.auth);
    expect(off.statusCode).toBe(200);
  });
});

describe('a workspace requiring two-factor', () => {
  it('denies its API to a member without it until they set it up; only a manager with it may require it', async () => {
    const manager = await verifiedUser(t, { name: 'Gus Manager' });
    const team = await teamWorkspace(t, manager, {
      name: 'Strict team',
      roles: {},
      people: { 'Hal Member': [] },
    });
    const member = team.members['Hal Member'];
    const put = (user: TestUser, payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/workspaces/${team.ws}/two-factor`,
        headers: user.auth,
        payload,
      });

    const own = await put(manager, { required: true });
    expect(own.statusCode).toBe(400);
    expect(own.json().error.message).toBe(TWO_FACTOR_MESSAGES.ownFirst);
    await setUp(manager);
    const notManager = await put(member, { required: true });
    expect(notManager.statusCode).toBe(403);
    expect(notManager.json().error.message).toBe(MESSAGES.managerRequired);
    expect((await put(manager, { required: true })).json()).toEqual({ required: true });

    const denied = await get(`/workspaces/${team.ws}`, member.auth);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(TWO_FACTOR_MESSAGES.required);
    expect((await get(`/workspaces/${team.ws}/items/blogging`, member.auth)).statusCode).toBe(403);
    expect((await get(`/workspaces/${team.ws}`, manager.auth)).statusCode).toBe(200);

    await setUp(member);
    expect((await get(`/workspaces/${team.ws}`, member.auth)).statusCode).toBe(200);
    const [{ n }] = await t.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, team.ws), eq(auditLog.action, 'two-factor.requirement-updated')));
    expect(n).toBe(1);
  });
});

describe('bad input on the two-factor routes', () => {
  it('answers 401 signed out and 4xx for bad bodies, with nothing written', async () => {
    const ivy = await verifiedUser(t, { name: 'Ivy Totp' });
    const team = await teamWorkspace(t, ivy, { name: 'Ivy TOTP team', roles: {}, people: {} });
    for (const url of ['/auth/two-factor/setup', '/auth/two-factor/enable', '/auth/two-factor/disable'])
      expect((await post(url, { code: '123456' })).statusCode).toBe(401);
    expect((await get('/auth/two-factor')).statusCode).toBe(401);
    const before = { user: await userRow(ivy.id), audit: await auditActions(ivy.id) };

    const bad: [string, object | undefined][] = [
      ['/auth/two-factor/enable', { code: '123456' }],
      ['/auth/two-factor/enable', { code: 'abc' }],
      ['/auth/two-factor/enable', {}],
      ['/auth/two-factor/disable', {}],
      ['/auth/two-factor/disable', { password: ivy.password }],
      ['/auth/two-factor/recovery-codes', { code: '1234567' }],
      ['/auth/two-factor/recovery-codes', { password: ivy.password }],
      ['/auth/sign-in/two-factor', {}],
      ['/auth/sign-in/two-factor', { pendingToken: 'x', code: '123456' }],
      ['/auth/sign-in/two-factor', { pendingToken: 'x', code: '123456', recoveryCode: 'abcde-23456' }],
      ['/auth/sign-in/two-factor', { pendingToken: 'x', recoveryCode: 'no' }],
    ];
    for (const [url, payload] of bad) {
      const res = await post(url, payload, ivy.auth);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
    }
    const badPut = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${team.ws}/two-factor`,
      headers: ivy.auth,
      payload: { required: 'yes' },
    });
    expect(badPut.statusCode).toBe(400);
    expect(await userRow(ivy.id)).toEqual(before.user);
    expect(await auditActions(ivy.id)).toEqual(before.audit);
  });
});
