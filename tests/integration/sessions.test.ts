import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { readOutbox } from '../helpers/outbox';

let t: TestApp;
let ada: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ada = await verifiedUser(t, { name: 'Ada Sessions' });
  bob = await verifiedUser(t, { name: 'Bob Sessions' });
});
afterAll(() => t.close());

const list = (auth?: { authorization: string }) =>
  t.app.inject({ method: 'GET', url: '/api/v1/auth/sessions', headers: auth ?? {} });
const end = (id: string, auth?: { authorization: string }) =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${id}`, headers: auth ?? {} });

async function signInAgain(user: TestUser, userAgent: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    headers: { 'user-agent': userAgent },
    payload: { email: user.email, password: user.password },
  });
  return { authorization: `Bearer ${res.json().token}` };
}

describe('the Sessions list', () => {
  it('answers 401 signed out', async () => {
    expect((await list()).statusCode).toBe(401);
    expect((await end('abc')).statusCode).toBe(401);
  });

  it("lists the user's own sessions, marks the current one and ends another", async () => {
    const laptop = await signInAgain(ada, 'Laptop browser');
    const listed = (await list(ada.auth)).json().sessions;
    expect(listed).toHaveLength(2);
    expect(listed.filter((s: { isCurrent: boolean }) => s.isCurrent)).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(ada.token);
    const other = listed.find((s: { userAgent: string | null }) => s.userAgent === 'Laptop browser');
    expect(other.isCurrent).toBe(false);
    expect((await end(other.id, ada.auth)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: laptop })).statusCode).toBe(401);
    expect((await list(ada.auth)).json().sessions).toHaveLength(1);
  });

  it('mails the account when it signs in from a browser none of its sessions used, and only then', async () => {
    const mailsTo = () =>
      readOutbox(t.dataDir).filter((m) => m.to.includes(bob.email) && m.subject.includes('New sign-in'));
    const before = mailsTo().length;
    await signInAgain(bob, 'lightMyRequest');
    await t.app.background.idle();
    expect(mailsTo()).toHaveLength(before);
    await signInAgain(bob, 'Phone browser 1.0');
    await t.app.background.idle();
    expect(mailsTo()).toHaveLength(before + 1);
    expect(mailsTo().at(-1)!.text).toContain('Phone browser 1.0');
  });

  it("answers 404 for another user's session and an unknown id, and 4xx for a malformed one", async () => {
    const bobs = (await list(bob.auth)).json().sessions;
    expect((await end(bobs[0].id, ada.auth)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bob.auth })).statusCode).toBe(
      200,
    );
    expect((await end('unknown-session-id', ada.auth)).statusCode).toBe(404);
    const bad = await end('x'.repeat(80), ada.auth);
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect((await list(bob.auth)).json().sessions).toHaveLength(bobs.length);
  });
});
