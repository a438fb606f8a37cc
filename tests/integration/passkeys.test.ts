import { and, count, eq, like } from 'drizzle-orm';
import { auditLog, passkeys, webauthnChallenges } from '@server/db/schema';
import { PASSKEY_MESSAGES } from '@shared/api/passkeys';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { SoftAuthenticator } from '../fixtures/soft-authenticator';
import { verifiedUser, type TestUser } from '../factories/users';
import { teamWorkspace } from '../factories/items';

const ORIGIN = 'https://marquee.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
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

const passkeyCount = async (userId: string) =>
  (await t.database.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)))[0]!.n;

/** Registers a new software passkey for the user, through the two registration routes. */
async function addPasskey(user: TestUser, name = 'Laptop') {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const options = (await post('/auth/passkeys/registration-options', undefined, user.auth)).json();
  const added = await post('/auth/passkeys', { name, response: authenticator.register(options) }, user.auth);
  expect(added.statusCode).toBe(200);
  return authenticator;
}

const signInOptions = async () => (await post('/auth/sign-in/passkey/options', undefined)).json();

describe('registering passkeys', () => {
  it('adds a named passkey from a registration challenge, lists it, audits it and removes it', async () => {
    const ada = await verifiedUser(t, { name: 'Ada Passkey' });
    const ws = await teamWorkspace(t, ada, { name: 'Ada passkey team', roles: {}, people: {} });
    const options = (await post('/auth/passkeys/registration-options', undefined, ada.auth)).json();
    expect(options).toMatchObject({
      rp: { id: 'marquee.example', name: 'Marquee' },
      user: { name: ada.email, displayName: 'Ada Passkey' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required' },
    });
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await post(
      '/auth/passkeys',
      { name: '  Work laptop ', response: authenticator.register(options) },
      ada.auth,
    );
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      id: authenticator.credentialId,
      name: 'Work laptop',
      lastUsedAt: null,
    });

    const listed = (await get('/auth/passkeys', ada.auth)).json();
    expect(listed.passkeys.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    // The next registration leaves out the passkeys the account has.
    const next = (await post('/auth/passkeys/registration-options', undefined, ada.auth)).json();
    expect(next.excludeCredentials).toEqual([
      { id: authenticator.credentialId, type: 'public-key', transports: ['internal'] },
    ]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/passkeys/${authenticator.credentialId}`,
      headers: ada.auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(await passkeyCount(ada.id)).toBe(0);
    const audited = await t.database.db
      .select({ action: auditLog.action, workspaceId: auditLog.workspaceId })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, ada.id), like(auditLog.action, 'passkey.%')))
      .orderBy(auditLog.id);
    expect(audited).toEqual([
      { action: 'passkey.added', workspaceId: ws.ws },
      { action: 'passkey.removed', workspaceId: ws.ws },
    ]);
  });

  it('refuses a replayed registration, another origin, a stranger’s challenge and bad input, writing nothing', async () => {
    const ada = await verifiedUser(t);
    const bob = await verifiedUser(t);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await post('/auth/passkeys/registration-options', undefined, ada.auth)).json();
    const response = authenticator.register(options);

    const otherOrigin = authenticator.register(options, { origin: 'https://evil.example' });
    expect((await post('/auth/passkeys', { name: 'x', response: otherOrigin }, ada.auth)).statusCode).toBe(
      400,
    );
    // Bob cannot answer Ada's challenge.
    const stolen = await post('/auth/passkeys', { name: 'x', response }, bob.auth);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.message).toBe(PASSKEY_MESSAGES.expired);
    for (const bad of [
      {},
      { name: '', response },
      { name: 'x'.repeat(65), response },
      { name: 'x', response: { ...response, type: 'password' } },
      { name: 'x', response: { ...response, response: { ...response.response, clientDataJSON: '!!' } } },
      { name: 'x', response: { ...response, response: { ...response.response, attestationObject: 'AAAA' } } },
    ])
      expect((await post('/auth/passkeys', bad, ada.auth)).statusCode).toBe(400);
    expect(await passkeyCount(ada.id)).toBe(0);
    expect(await passkeyCount(bob.id)).toBe(0);

    expect((await post('/auth/passkeys', { name: 'Phone', response }, ada.auth)).statusCode).toBe(200);
    const replayed = await post('/auth/passkeys', { name: 'Again', response }, ada.auth);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.message).toBe(PASSKEY_MESSAGES.expired);
    expect(await passkeyCount(ada.id)).toBe(1);
  });

  it('answers 401 without a session and 404 for another user’s passkey', async () => {
    const ada = await verifiedUser(t);
    const bob = await verifiedUser(t);
    const authenticator = await addPasskey(ada);
    expect((await get('/auth/passkeys')).statusCode).toBe(401);
    expect((await post('/auth/passkeys/registration-options', undefined)).statusCode).toBe(401);
    const byBob = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/passkeys/${authenticator.credentialId}`,
      headers: bob.auth,
    });
    expect(byBob.statusCode).toBe(404);
    expect((await get('/auth/passkeys', bob.auth)).json().passkeys).toEqual([]);
    expect(await passkeyCount(ada.id)).toBe(1);
  });
});

describe('signing in with a passkey instead of a password', () => {
  it('signs in with a discoverable passkey, once per challenge, with its counter moving on', async () => {
    const ada = await verifiedUser(t);
    const authenticator = await addPasskey(ada);
    const options = await signInOptions();
    expect(options.rpId).toBe('marquee.example');
    expect(options.userVerification).toBe('required');
    const response = authenticator.assert(options);
    const signedIn = await post('/auth/sign-in/passkey', { response });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.id).toBe(ada.id);
    const me = await get('/me', { authorization: `Bearer ${signedIn.json().token}` });
    expect(me.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.id, authenticator.credentialId));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).not.toBeNull();

    const replayed = await post('/auth/sign-in/passkey', { response });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.message).toBe(PASSKEY_MESSAGES.expired);
  });

  it('refuses a counter gone back, an unverified user, an unknown passkey and a forged signature', async () => {
    const ada = await verifiedUser(t);
    const authenticator = await addPasskey(ada);
    expect(
      (await post('/auth/sign-in/passkey', { response: authenticator.assert(await signInOptions()) }))
        .statusCode,
    ).toBe(200);

    authenticator.counter = 0;
    const cloned = await post('/auth/sign-in/passkey', {
      response: authenticator.assert(await signInOptions()),
    });
    expect(cloned.statusCode).toBe(401);
    authenticator.counter = 10;
    const unverified = authenticator.assert(await signInOptions(), { isUserVerified: false });
    expect((await post('/auth/sign-in/passkey', { response: unverified })).statusCode).toBe(401);

    const unknown = new SoftAuthenticator(ORIGIN).assert(await signInOptions());
    const refused = await post('/auth/sign-in/passkey', { response: unknown });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(PASSKEY_MESSAGES.unknown);

    const forged = authenticator.assert(await signInOptions());
    forged.response.signature = new SoftAuthenticator(ORIGIN).assert({ challenge: 'x' }).response.signature;
    expect((await post('/auth/sign-in/passkey', { response: forged })).statusCode).toBe(401);

    // A challenge the server never made.
    const invented = authenticator.assert({ challenge: 'bm90LWEtY2hhbGxlbmdl' });
    expect((await post('/auth/sign-in/passkey', { response: invented })).statusCode).toBe(400);
    for (const bad of [{}, { response: {} }, { response: { ...forged, id: 'not base64url!' } }])
      expect((await post('/auth/sign-in/passkey', bad)).statusCode).toBe(400);
  });
});

describe('a passkey as the second step of a password sign-in', () => {
  const passwordStep = async (user: TestUser) => {
    const res = await post('/auth/sign-in', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      twoFactorRequired?: true;
      pendingToken: string;
      methods: string[];
      token?: string;
    };
  };

  it('asks for a passkey after the password and starts the session only with it', async () => {
    const ada = await verifiedUser(t);
    const authenticator = await addPasskey(ada);
    const first = await passwordStep(ada);
    expect(first).toMatchObject({ twoFactorRequired: true, methods: ['passkey'] });
    expect(first.token).toBeUndefined();

    const options = (
      await post('/auth/sign-in/two-factor/passkey-options', { pendingToken: first.pendingToken })
    ).json();
    expect(options.allowCredentials).toEqual([
      { id: authenticator.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    const response = authenticator.assert(options);
    const second = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      passkey: response,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().user.id).toBe(ada.id);

    // The same pending token and the same assertion, again.
    const replayed = await post('/auth/sign-in/two-factor', {
      pendingToken: first.pendingToken,
      passkey: response,
    });
    expect(replayed.statusCode).toBe(400);
    const again = await passwordStep(ada);
    const replayedAssertion = await post('/auth/sign-in/two-factor', {
      pendingToken: again.pendingToken,
      passkey: response,
    });
    expect(replayedAssertion.statusCode).toBe(400);
    expect(replayedAssertion.json().error.message).toBe(PASSKEY_MESSAGES.expired);
  });

  it("refuses another user's passkey and keeps the pending sign-in usable after a wrong answer", async () => {
    const ada = await verifiedUser(t);
    const bob = await verifiedUser(t);
    const adaKey = await addPasskey(ada);
    const bobKey = await addPasskey(bob);
    const pending = await passwordStep(ada);
    const options = (
      await post('/auth/sign-in/two-factor/passkey-options', { pendingToken: pending.pendingToken })
    ).json();
    const withBobs = await post('/auth/sign-in/two-factor', {
      pendingToken: pending.pendingToken,
      passkey: bobKey.assert(options),
    });
    expect(withBobs.statusCode).toBe(401);
    expect(withBobs.json().error.message).toBe(PASSKEY_MESSAGES.unknown);
    // Bob's own pending sign-in cannot take a challenge made for Ada.
    const bobPending = await passwordStep(bob);
    const crossed = await post('/auth/sign-in/two-factor', {
      pendingToken: bobPending.pendingToken,
      passkey: bobKey.assert(options),
    });
    expect(crossed.statusCode).toBe(400);

    const right = await post('/auth/sign-in/two-factor', {
      pendingToken: pending.pendingToken,
      passkey: adaKey.assert(options),
    });
    expect(right.statusCode).toBe(200);
    expect(right.json().user.id).toBe(ada.id);
  });

  it('answers 400 for a bad pending token, storing no challenge', async () => {
    const before = (await t.database.db.select({ n: count() }).from(webauthnChallenges))[0]!.n;
    expect(
      (await post('/auth/sign-in/two-factor/passkey-options', { pendingToken: 'forged' })).statusCode,
    ).toBe(400);
    expect((await post('/auth/sign-in/two-factor/passkey-options', {})).statusCode).toBe(400);
    expect((await t.database.db.select({ n: count() }).from(webauthnChallenges))[0]!.n).toBe(before);
  });

  it('counts as the second factor a workspace requires', async () => {
    const ada = await verifiedUser(t);
    const ws = await teamWorkspace(t, ada, { name: 'Passkey-required team', roles: {}, people: {} });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.ws}/two-factor`,
      headers: ada.auth,
      payload: { required: true },
    });
    expect(refused.statusCode).toBe(400);
    await addPasskey(ada);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.ws}/two-factor`,
      headers: ada.auth,
      payload: { required: true },
    });
    expect(saved.statusCode).toBe(200);
  });
});
