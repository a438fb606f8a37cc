import { eq } from 'drizzle-orm';
import { emailTokens, sessions, users } from '@server/db/schema';
import { hashToken } from '@server/lib/ids';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { lastLink, readOutbox, tokenOf } from '../helpers/outbox';
import { newUserInput, signUp, verifiedUser } from '../factories/users';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });

describe('sign-up', () => {
  it('creates an unverified account and mails a verification link; signing in sets the cookie', async () => {
    const input = newUserInput({ email: 'New.Person@Example.test' });
    const res = await post('/auth/sign-up', input);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    expect(res.cookies).toEqual([]);
    const signIn = await post('/auth/sign-in', { email: input.email, password: input.password });
    const body = signIn.json();
    expect(body.user).toMatchObject({
      name: input.name,
      email: 'new.person@example.test',
      emailVerified: false,
    });
    expect(body.token).toEqual(expect.any(String));
    const cookie = signIn.cookies.find((c) => c.name === 'marquee_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await t.app.background.idle();
    expect(lastLink(t.dataDir, 'new.person@example.test', '/user/verify-email')).toMatch(
      /^http:\/\/marquee\.test\/user\/verify-email\?token=/,
    );
  });

  it('stores an argon2id hash and only a hash of the session token', async () => {
    const user = await signUp(t.app);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(user.password);
    const stored = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored.map((s) => s.idHash)).toEqual([hashToken(user.token)]);
  });

  it('keeps the account of an address that already has one, and mails its owner instead', async () => {
    const user = await signUp(t.app);
    const res = await post('/auth/sign-up', newUserInput({ email: user.email.toUpperCase() }));
    expect(res.statusCode).toBe(202);
    expect((await post('/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(
      200,
    );
    await t.app.background.idle();
    const [mail] = readOutbox(t.dataDir)
      .filter((m) => m.to.includes(user.email))
      .reverse();
    expect(mail.subject).toBe('Someone tried to create a Marquee account with your address');
  });

  it.each([
    [{ email: 'not-an-email' }, 'email: Enter a valid email address'],
    [{ password: 'short' }, 'password: Password must be at least 8 characters'],
    [{ name: '   ' }, 'name: Name is required'],
    [{ returnTo: '//evil.example/steal' }, 'returnTo: returnTo must be a path of this application'],
    [{ returnTo: 'https://evil.example/' }, 'returnTo: returnTo must be a path of this application'],
  ])('answers 400 with a clear message for %o', async (override, message) => {
    const res = await post('/auth/sign-up', { ...newUserInput(), ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'invalid_request', message });
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-up',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
  });
});

describe('sign-in and sessions', () => {
  it('answers a token that works as a bearer token and as the cookie', async () => {
    const user = await signUp(t.app);
    const res = await post('/auth/sign-in', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    const { token, user: dto } = res.json();
    expect(dto.id).toBe(user.id);
    const byBearer = await t.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
    expect(byBearer.json().user.id).toBe(user.id);
    const byCookie = await t.app.inject({ url: '/api/v1/me', cookies: { marquee_session: token } });
    expect(byCookie.json().user.id).toBe(user.id);
  });

  it('gives a wrong password and an unknown email the same answer', async () => {
    const user = await signUp(t.app);
    const wrong = await post('/auth/sign-in', { email: user.email, password: 'wrong password!' });
    const unknown = await post('/auth/sign-in', {
      email: 'nobody@example.test',
      password: 'wrong password!',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.message).toBe('Wrong email or password');
  });

  it('answers 401 with the spec message when nobody is signed in or the token is unknown', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-session' }]) {
      const res = await t.app.inject({ url: '/api/v1/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe('No user. Please sign out and sign in');
    }
  });

  it('ends the session on sign-out', async () => {
    const user = await signUp(t.app);
    const out = await post('/auth/sign-out', {}, user.auth);
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/me', headers: user.auth })).statusCode).toBe(401);
  });

  it('does not accept an expired session', async () => {
    const user = await signUp(t.app);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, hashToken(user.token)));
    expect((await t.app.inject({ url: '/api/v1/me', headers: user.auth })).statusCode).toBe(401);
  });
});

describe('email verification', () => {
  it('verifies through the mailed link once, and returns to the attempted URL', async () => {
    const input = newUserInput();
    await post('/auth/sign-up', { ...input, returnTo: '/acme/_items/all' });
    await t.app.background.idle();
    const token = tokenOf(lastLink(t.dataDir, input.email, '/user/verify-email'));
    const res = await post('/auth/verify-email', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      returnTo: '/acme/_items/all',
      user: { emailVerified: true },
    });
    const again = await post('/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe('This link is invalid or has expired');
  });

  it('refuses an expired link', async () => {
    const user = await signUp(t.app);
    const token = tokenOf(lastLink(t.dataDir, user.email, '/user/verify-email'));
    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.tokenHash, hashToken(token)));
    expect((await post('/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it('resending retires the older link', async () => {
    const user = await signUp(t.app);
    const first = tokenOf(lastLink(t.dataDir, user.email, '/user/verify-email'));
    expect((await post('/auth/send-verification', {}, user.auth)).statusCode).toBe(200);
    const second = tokenOf(lastLink(t.dataDir, user.email, '/user/verify-email'));
    expect(second).not.toBe(first);
    expect((await post('/auth/verify-email', { token: first })).statusCode).toBe(400);
    expect((await post('/auth/verify-email', { token: second })).statusCode).toBe(200);
  });

  it('needs a signed-in user to resend', async () => {
    expect((await post('/auth/send-verification', {})).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('answers the same for unknown addresses and mails nothing', async () => {
    const before = readOutbox(t.dataDir).length;
    const res = await post('/auth/request-password-reset', { email: 'ghost@example.test' });
    expect(res.statusCode).toBe(200);
    await t.app.background.idle();
    expect(readOutbox(t.dataDir).length).toBe(before);
  });

  it('sets a new password and ends every old session', async () => {
    const user = await verifiedUser(t);
    await post('/auth/request-password-reset', { email: user.email, returnTo: '/workspaces' });
    await t.app.background.idle();
    const token = tokenOf(lastLink(t.dataDir, user.email, '/auth/reset-password'));
    const res = await post('/auth/reset-password', { token, password: 'a brand new password' });
    expect(res.statusCode).toBe(200);
    expect(res.json().returnTo).toBe('/workspaces');
    expect((await t.app.inject({ url: '/api/v1/me', headers: user.auth })).statusCode).toBe(401);
    expect((await post('/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/auth/sign-in', { email: user.email, password: 'a brand new password' })).statusCode,
    ).toBe(200);
    expect((await post('/auth/reset-password', { token, password: 'another password' })).statusCode).toBe(
      400,
    );
  });

  it('refuses a weak new password', async () => {
    const res = await post('/auth/reset-password', { token: 'whatever', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('password: Password must be at least 8 characters');
  });
});

describe('change email', () => {
  it('needs the current password, then the new address confirms it', async () => {
    const user = await verifiedUser(t);
    const newEmail = newUserInput().email;
    const wrong = await post('/auth/change-email', { currentPassword: 'nope nope', newEmail }, user.auth);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toEqual({
      code: 'invalid_credentials',
      message: 'Current password is incorrect',
    });

    const res = await post('/auth/change-email', { currentPassword: user.password, newEmail }, user.auth);
    expect(res.statusCode).toBe(200);
    // Nothing changes until the new address confirms.
    expect((await t.app.inject({ url: '/api/v1/me', headers: user.auth })).json().user.email).toBe(
      user.email,
    );
    await t.app.background.idle();
    const token = tokenOf(lastLink(t.dataDir, newEmail, '/user/verify-email'));
    expect((await post('/auth/verify-email', { token })).json().user).toMatchObject({
      email: newEmail,
      emailVerified: true,
    });
    expect((await post('/auth/sign-in', { email: newEmail, password: user.password })).statusCode).toBe(200);
  });

  it('answers an address another account uses like a free one, and sends it nothing', async () => {
    const user = await verifiedUser(t);
    const other = await signUp(t.app);
    const before = readOutbox(t.dataDir).length;
    const res = await post(
      '/auth/change-email',
      { currentPassword: user.password, newEmail: other.email },
      user.auth,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    await t.app.background.idle();
    expect(readOutbox(t.dataDir).length).toBe(before);
  });

  it('needs a signed-in user', async () => {
    const res = await post('/auth/change-email', { currentPassword: 'x', newEmail: 'a@b.test' });
    expect(res.statusCode).toBe(401);
  });
});

describe('rate limiting', () => {
  it('limits sign-in attempts per client', async () => {
    const limited = await createTestApp({ authRateLimit: 3 });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/auth/sign-in',
          payload: { email: 'a@b.test', password: 'whatever1' },
        });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await attempt()).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
      expect((await attempt()).json().error.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
