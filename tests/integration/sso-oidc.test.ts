import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { auditLog, ssoConnections, ssoIdentities, users } from '@server/db/schema';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider';
import { startHandMadeProvider } from '../fixtures/hand-made-oidc';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';

let t: TestApp;
let op: TestOidcProvider;
let manager: TestUser;
let editor: TestUser;
let outsider: TestUser;
let ws: string;
let other: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: TestUser, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user?.auth ?? {}, payload });

const callbackOf = (id: string) => `http://marquee.test/api/v1/auth/sso/${id}/callback`;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  const created = await createWorkspace(t.app, manager, 'Corp');
  ws = created.id;
  await patchWorkspace(t.app, manager, ws, {
    roles: {
      ...created.roles,
      editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] },
      publisher: { name: 'Publisher', canEdit: ['blog-post'], canPublish: ['blog-post'], mustApprove: [] },
    },
  });
  const input = newUserInput({ name: 'Eve Editor' });
  await api('POST', `/workspaces/${ws}/members/invitations`, manager, {
    email: input.email,
    roles: ['editor'],
  });
  editor = await verifiedUser(t, input);
  other = (await createWorkspace(t.app, manager, 'Other Corp')).id;
  op = await startOidcProvider([callbackOf(ws), callbackOf(other)]);
});
afterAll(async () => {
  await op?.close();
  await t.close();
});

const connection = (overrides: object = {}) => ({
  issuer: op.issuer,
  clientId: op.clientId,
  clientSecret: op.clientSecret,
  domains: ['corp.test'],
  allowPassword: true,
  roleRules: [
    { claim: 'groups', value: 'marketing', roles: ['editor'] },
    { claim: 'groups', value: 'web', roles: ['publisher', 'editor'] },
    { claim: 'groups', value: 'cms-admins', roles: [], isWorkspaceManager: true },
  ],
  ...overrides,
});

const auditCount = async () =>
  (await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.workspaceId, ws)))[0].n;

/** The browser's round trip: start, the provider's login as `subject`, the callback with the state cookie. */
async function ssoSignIn(workspaceId: string, subject: string, user?: TestUser, query = '') {
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/sso/${workspaceId}/start${query}`,
    headers: user?.auth ?? {},
  });
  expect(start.statusCode).toBe(302);
  const state = start.cookies.find((c) => c.name === 'marquee_sso')!;
  expect(state).toMatchObject({ httpOnly: true, path: '/api/v1/auth/sso' });
  const back = await op.signInAt(start.headers.location!, subject);
  return {
    back,
    stateCookie: state.value,
    res: await t.app.inject({
      method: 'GET',
      url: back.pathname + back.search,
      cookies: { marquee_sso: state.value },
      headers: user?.auth ?? {},
    }),
  };
}

const sessionOf = (res: { cookies: { name: string; value: string }[] }) => {
  const token = res.cookies.find((c) => c.name === 'marquee_session')?.value;
  return token ? { authorization: `Bearer ${token}` } : undefined;
};

async function memberOf(email: string) {
  const list = (await api('GET', `/workspaces/${ws}/members`, manager)).json();
  return list.members.find((m: { email: string }) => m.email === email);
}

describe('single sign-on settings', () => {
  it('answers 401 signed out, 404 to strangers and 403 to members who are not managers', async () => {
    expect((await api('GET', `/workspaces/${ws}/sso`)).statusCode).toBe(401);
    expect((await api('GET', `/workspaces/${ws}/sso`, outsider)).statusCode).toBe(404);
    for (const [method, url, body] of [
      ['GET', '/sso', undefined],
      ['PUT', '/sso', connection()],
      ['POST', '/sso/test', { issuer: op.issuer }],
      ['DELETE', '/sso', undefined],
    ] as const) {
      const res = await api(method, `/workspaces/${ws}${url}`, editor, body);
      expect(res.statusCode).toBe(403);
    }
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const before = await auditCount();
    const bad = [
      [connection({ issuer: 'http://idp.example.com' }), 400, 'https'],
      [connection({ issuer: 'not a url' }), 400, 'https'],
      [connection({ domains: ['not a domain'] }), 400, 'domain'],
      [connection({ roleRules: [{ claim: 'groups', value: 'x', roles: ['ghost'] }] }), 400, 'ghost'],
      [connection({ roleRules: [{ claim: '', value: 'x', roles: [] }] }), 400, 'claim'],
      [connection({ clientId: '' }), 400, 'client id'],
      [connection({ issuer: 'http://127.0.0.1:1' }), 400, 'could not be reached'],
      [{ issuer: op.issuer }, 400, ''],
    ] as const;
    for (const [body, status, message] of bad) {
      const res = await api('PUT', `/workspaces/${ws}/sso`, manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error.message).toContain(message);
    }
    expect((await api('POST', `/workspaces/${ws}/sso/test`, manager, { issuer: 'ftp://x' })).statusCode).toBe(
      400,
    );
    expect((await api('DELETE', `/workspaces/${ws}/sso`, manager)).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
    expect(await t.database.db.select().from(ssoConnections)).toEqual([]);
  });

  it('tests the connection by discovery, then saves it with the secret sealed and never shown', async () => {
    const test = await api('POST', `/workspaces/${ws}/sso/test`, manager, { issuer: op.issuer });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ ok: true, issuer: op.issuer });
    const res = await api('PUT', `/workspaces/${ws}/sso`, manager, connection());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      redirectUri: callbackOf(ws),
      connection: {
        issuer: op.issuer,
        hasClientSecret: true,
        domains: ['corp.test'],
        updatedBy: 'Mia Manager',
      },
    });
    expect(res.body).not.toContain(op.clientSecret);
    const [row] = await t.database.db.select().from(ssoConnections).where(eq(ssoConnections.workspaceId, ws));
    expect(row.clientSecret).toMatch(/^v1\./);
    expect(row.clientSecret).not.toContain(op.clientSecret);
    const audit = await api('GET', `/workspaces/${ws}/audit?action=sso.updated`, manager);
    expect(audit.json().entries[0]).toMatchObject({ userName: 'Mia Manager', label: op.issuer });
    expect(JSON.stringify(audit.json())).not.toContain(op.clientSecret);
    // Another workspace cannot claim the same domain.
    const taken = await api('PUT', `/workspaces/${other}/sso`, manager, connection({ roleRules: [] }));
    expect(taken.statusCode).toBe(409);
  });
});

describe('signing in with the provider', () => {
  it('makes a new account a member with the roles its groups map to, and applies them at every sign-in', async () => {
    op.accounts.set('sub-nora', { email: 'nora@corp.test', name: 'Nora New', groups: ['marketing', 'web'] });
    const first = await ssoSignIn(ws, 'sub-nora');
    expect(first.res.statusCode).toBe(302);
    expect(first.res.headers.location).toBe(`http://marquee.test/${ws}`);
    const session = sessionOf(first.res)!;
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: session });
    expect(me.json().user).toMatchObject({ email: 'nora@corp.test', name: 'Nora New', emailVerified: true });
    expect(await memberOf('nora@corp.test')).toMatchObject({
      active: true,
      roles: ['editor', 'publisher'],
      isWorkspaceManager: false,
    });
    // The group removed at the provider removes its role; a manager group grants manager rights.
    op.accounts.set('sub-nora', { email: 'nora@corp.test', groups: ['marketing', 'cms-admins'] });
    expect((await ssoSignIn(ws, 'sub-nora')).res.statusCode).toBe(302);
    expect(await memberOf('nora@corp.test')).toMatchObject({ roles: ['editor'], isWorkspaceManager: true });
    op.accounts.set('sub-nora', { email: 'nora@corp.test', groups: [] });
    expect((await ssoSignIn(ws, 'sub-nora')).res.statusCode).toBe(302);
    expect(await memberOf('nora@corp.test')).toMatchObject({ roles: [], isWorkspaceManager: false });
    const audit = await api('GET', `/workspaces/${ws}/audit?action=sso.signed-in`, manager);
    expect(audit.json().entries[0]).toMatchObject({
      label: 'Nora New',
      detail: { issuer: op.issuer, subject: 'sub-nora', roles: [] },
    });
  });

  it('binds the identity to its subject: a new email at the provider still signs in the same account', async () => {
    op.accounts.set('sub-sam', { email: 'sam@corp.test', groups: ['marketing'] });
    const first = await ssoSignIn(ws, 'sub-sam');
    const id = (
      await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: sessionOf(first.res)! })
    ).json().user.id;
    op.accounts.set('sub-sam', { email: 'samuel@corp.test', groups: ['marketing'] });
    const again = await ssoSignIn(ws, 'sub-sam');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: sessionOf(again.res)! });
    expect(me.json().user).toMatchObject({ id, email: 'sam@corp.test' });
  });

  it('refuses a same-email account made with a password until its signed-in owner links it', async () => {
    const owner = await verifiedUser(t, { email: 'pat@corp.test', name: 'Pat Password' });
    op.accounts.set('sub-pat', { email: 'pat@corp.test', groups: ['web'] });
    const takeover = await ssoSignIn(ws, 'sub-pat');
    expect(takeover.res.statusCode).toBe(409);
    expect(takeover.res.json().error.message).toContain('already exists');
    expect(sessionOf(takeover.res)).toBeUndefined();
    expect(
      await t.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, owner.id)),
    ).toEqual([]);
    // Signed in, the owner links it; from then on the provider signs in this account.
    const link = await ssoSignIn(ws, 'sub-pat', owner, '?link=1');
    expect(link.res.statusCode).toBe(302);
    expect(sessionOf(link.res)).toBeUndefined();
    const next = await ssoSignIn(ws, 'sub-pat');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: sessionOf(next.res)! });
    expect(me.json().user.id).toBe(owner.id);
    expect(await memberOf('pat@corp.test')).toMatchObject({ roles: ['editor', 'publisher'] });
  });

  it('refuses a provider of another workspace asserting an address at a domain it does not own', async () => {
    await api(
      'PUT',
      `/workspaces/${other}/sso`,
      manager,
      connection({ domains: ['other.test'], roleRules: [] }),
    );
    op.accounts.set('sub-mallory', { email: 'nora@corp.test', groups: ['cms-admins'] });
    const res = (await ssoSignIn(other, 'sub-mallory')).res;
    expect(res.statusCode).toBe(403);
    expect(sessionOf(res)).toBeUndefined();
    const [{ n }] = await t.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.email, 'nora@corp.test'));
    expect(n).toBe(1);
  });

  it('refuses a tampered state or code, a missing cookie and a replayed callback', async () => {
    op.accounts.set('sub-tess', { email: 'tess@corp.test', groups: [] });
    const start = await t.app.inject({ method: 'GET', url: `/api/v1/auth/sso/${ws}/start` });
    const cookie = start.cookies.find((c) => c.name === 'marquee_sso')!.value;
    const back = await op.signInAt(start.headers.location!, 'sub-tess');
    const callback = (search: URLSearchParams, cookies: Record<string, string> = { marquee_sso: cookie }) =>
      t.app.inject({ method: 'GET', url: `${back.pathname}?${search}`, cookies });
    const tamperedState = new URLSearchParams(back.search);
    tamperedState.set('state', 'x' + tamperedState.get('state'));
    expect((await callback(tamperedState)).statusCode).toBe(400);
    expect((await callback(new URLSearchParams(back.search), {})).statusCode).toBe(400);
    const tamperedCode = new URLSearchParams(back.search);
    tamperedCode.set('code', tamperedCode.get('code') + 'x');
    expect((await callback(tamperedCode)).statusCode).toBe(400);
    const tamperedCookie = await callback(new URLSearchParams(back.search), {
      marquee_sso: cookie.slice(0, -2),
    });
    expect(tamperedCookie.statusCode).toBe(400);
    // The state of another workspace's flow does not open this one's.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/v1/auth/sso/${other}/callback${back.search}`,
      cookies: { marquee_sso: cookie },
    });
    expect(elsewhere.statusCode).toBe(400);
    const good = await callback(new URLSearchParams(back.search));
    expect(good.statusCode).toBe(302);
    const replay = await callback(new URLSearchParams(back.search));
    expect(replay.statusCode).toBe(400);
    expect(sessionOf(replay)).toBeUndefined();
    // A browser is sent back to the sign-in page with the reason.
    const browser = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { marquee_sso: cookie },
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toMatch(/^http:\/\/marquee\.test\/auth\/welcome\?ssoError=/);
    expect(sessionOf(browser)).toBeUndefined();
  });

  it('answers 404 for a workspace without single sign-on and 400 for a bad workspace id', async () => {
    const plain = (await createWorkspace(t.app, manager, 'Plain')).id;
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/sso/${plain}/start` })).statusCode).toBe(
      404,
    );
    const bad = await t.app.inject({ method: 'GET', url: `/api/v1/auth/sso/..%2f/start` });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    const badReturn = await t.app.inject({ method: 'GET', url: `/api/v1/auth/sso/${ws}/start?link=yes` });
    expect(badReturn.statusCode).toBe(400);
  });
});

describe('ID tokens a real provider would not issue', () => {
  it('refuses an expired ID token and one signed with another key, and signs nobody in', async () => {
    const forger = await startHandMadeProvider();
    try {
      const body = connection({ issuer: forger.issuer, domains: ['forged.test'], roleRules: [] });
      expect((await api('PUT', `/workspaces/${other}/sso`, manager, body)).statusCode).toBe(200);
      const now = Math.floor(Date.now() / 1000);
      const attempt = async (claims: Record<string, unknown>, key?: crypto.KeyObject) => {
        const start = await t.app.inject({ method: 'GET', url: `/api/v1/auth/sso/${other}/start` });
        const location = new URL(start.headers.location!);
        const claimsWithNonce = { nonce: location.searchParams.get('nonce'), aud: op.clientId, ...claims };
        forger.answerWith(claimsWithNonce, key);
        const state = location.searchParams.get('state')!;
        return t.app.inject({
          method: 'GET',
          url: `/api/v1/auth/sso/${other}/callback?code=c&state=${encodeURIComponent(state)}`,
          cookies: { marquee_sso: start.cookies.find((c) => c.name === 'marquee_sso')!.value },
        });
      };
      const person = { sub: 'forged-1', email: 'fay@forged.test' };
      const expired = await attempt({ ...person, iat: now - 7200, exp: now - 3600 });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.message).toBe(
        'The identity provider did not confirm who you are. Please sign in again.',
      );
      const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const forged = await attempt({ ...person, iat: now, exp: now + 600 }, otherKey);
      expect(forged.statusCode).toBe(400);
      const wrongAudience = await attempt({ ...person, aud: 'someone-else', iat: now, exp: now + 600 });
      expect(wrongAudience.statusCode).toBe(400);
      expect(await t.database.db.select().from(users).where(eq(users.email, 'fay@forged.test'))).toEqual([]);
      // The same token, fresh and signed with the provider's key, is accepted.
      const good = await attempt({ ...person, iat: now, exp: now + 600 });
      expect(good.statusCode).toBe(302);
      expect(sessionOf(good)).toBeDefined();
    } finally {
      await forger.close();
    }
  });
});

describe('enforced single sign-on', () => {
  it('refuses a password for an address at the domain and tells the sign-in page where to go', async () => {
    const input = newUserInput({ email: 'quinn@corp.test' });
    await verifiedUser(t, input);
    const save = await api(
      'PUT',
      `/workspaces/${ws}/sso`,
      manager,
      connection({ clientSecret: undefined, allowPassword: false }),
    );
    expect(save.statusCode).toBe(200);
    expect(save.json().connection.hasClientSecret).toBe(true);
    const signIn = await api('POST', '/auth/sign-in', undefined, {
      email: input.email,
      password: input.password,
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error).toMatchObject({ code: 'sso_required', details: { workspaceId: ws } });
    expect(sessionOf(signIn)).toBeUndefined();
    const discover = await api('GET', `/auth/sso/discover?email=${encodeURIComponent('QUINN@corp.test')}`);
    expect(discover.json()).toEqual({ workspaceId: ws, isPasswordAllowed: false });
    expect((await api('GET', '/auth/sso/discover?email=someone@example.test')).json()).toEqual({
      workspaceId: null,
      isPasswordAllowed: true,
    });
    // Other domains keep their passwords.
    expect(
      (await api('POST', '/auth/sign-in', undefined, { email: manager.email, password: manager.password }))
        .statusCode,
    ).toBe(200);
    // The provider still signs in the bound accounts.
    op.accounts.set('sub-nora', { email: 'nora@corp.test', groups: ['web'] });
    expect((await ssoSignIn(ws, 'sub-nora')).res.statusCode).toBe(302);
  });

  it('lets a manager remove the connection, which ends the enforcement', async () => {
    expect((await api('DELETE', `/workspaces/${ws}/sso`, manager)).statusCode).toBe(200);
    expect((await api('GET', `/workspaces/${ws}/sso`, manager)).json().connection).toBeNull();
    const discover = await api('GET', '/auth/sso/discover?email=quinn@corp.test');
    expect(discover.json()).toEqual({ workspaceId: null, isPasswordAllowed: true });
  });
});
