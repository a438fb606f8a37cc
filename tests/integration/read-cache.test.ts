// The session's user and the caller's membership are cached for a moment in the server's memory
// (db/read-cache.ts): every write that changes them must take effect on the very next request.
import { lastLink, tokenOf } from '../helpers/outbox';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { signUp, verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, itemsUrl, role, teamWorkspace } from '../factories/items';
import { patchWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  expect(t.config.readCacheTtlMs).toBeGreaterThan(0);
  manager = await verifiedUser(t, { name: 'Mia Manager' });
});
afterAll(() => t.close());

const me = (user: TestUser) => call(t, 'GET', '/api/v1/me', user);

/** Two reads, so the second surely came from the cache if one is there. */
async function warm(request: () => ReturnType<typeof me>, status: number) {
  expect((await request()).statusCode).toBe(status);
  expect((await request()).statusCode).toBe(status);
}

describe('sessions', () => {
  it('refuses a signed-out token on the next request', async () => {
    const user = await verifiedUser(t);
    await warm(() => me(user), 200);
    expect((await call(t, 'POST', '/api/v1/auth/sign-out', user, {})).statusCode).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
  });

  it('refuses every old session of an account on the next request after a password reset', async () => {
    const user = await verifiedUser(t);
    const second = await call(t, 'POST', '/api/v1/auth/sign-in', undefined, {
      email: user.email,
      password: user.password,
    });
    const other = { ...user, auth: { authorization: `Bearer ${second.json().token}` } };
    await warm(() => me(user), 200);
    await warm(() => me(other), 200);
    await call(t, 'POST', '/api/v1/auth/request-password-reset', undefined, { email: user.email });
    await t.app.background.idle();
    const token = tokenOf(lastLink(t.dataDir, user.email, '/auth/reset-password'));
    const reset = await call(t, 'POST', '/api/v1/auth/reset-password', undefined, {
      token,
      password: 'a brand new password',
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
  });

  it('sees a verified email on the next request', async () => {
    const user = await signUp(t.app);
    const workspaces = () => call(t, 'GET', '/api/v1/workspaces', user);
    await warm(workspaces, 403);
    const token = tokenOf(lastLink(t.dataDir, user.email, '/user/verify-email'));
    expect((await call(t, 'POST', '/api/v1/auth/verify-email', undefined, { token })).statusCode).toBe(200);
    expect((await workspaces()).statusCode).toBe(200);
    expect((await me(user)).json().user.emailVerified).toBe(true);
  });
});

describe('memberships', () => {
  const team = (name: string) =>
    teamWorkspace(t, manager, {
      name,
      roles: { editor: role('Editor', { canEdit: ['blog-post'] }) },
      people: { editor: ['editor'] },
    });

  it('refuses a deactivated member on the next request, and lets them back in once reactivated', async () => {
    const { ws, members } = await team('Deactivation');
    const editor = members.editor;
    const list = () => call(t, 'GET', itemsUrl(ws, 'blog-post'), editor);
    await warm(list, 200);
    const patch = (active: boolean) =>
      call(t, 'PATCH', `/api/v1/workspaces/${ws}/members/${editor.id}`, manager, { active });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(404);
    expect(
      (await call(t, 'POST', itemsUrl(ws, 'blog-post'), editor, { data: blogPostData() })).statusCode,
    ).toBe(404);
    expect((await patch(true)).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
  });

  it('applies a member role change on the next request', async () => {
    const { ws, members } = await team('Member Roles');
    const editor = members.editor;
    const create = () => call(t, 'POST', itemsUrl(ws, 'blog-post'), editor, { data: blogPostData() });
    expect((await create()).statusCode).toBe(201);
    expect((await create()).statusCode).toBe(201);
    const patched = await call(t, 'PATCH', `/api/v1/workspaces/${ws}/members/${editor.id}`, manager, {
      roles: [],
    });
    expect(patched.statusCode).toBe(200);
    expect((await create()).statusCode).toBe(403);
  });

  it('applies a change of the workspace roles on the next request', async () => {
    const { ws, members } = await team('Workspace Roles');
    const editor = members.editor;
    const create = () => call(t, 'POST', itemsUrl(ws, 'blog-post'), editor, { data: blogPostData() });
    expect((await create()).statusCode).toBe(201);
    expect((await create()).statusCode).toBe(201);
    const current = (await call(t, 'GET', `/api/v1/workspaces/${ws}`, manager)).json();
    const res = await patchWorkspace(t.app, manager, ws, {
      roles: { ...current.roles, editor: role('Editor', { canEdit: [] }) },
    });
    expect(res.statusCode).toBe(200);
    expect((await create()).statusCode).toBe(403);
  });

  it('applies a change of the enabled domains on the next request', async () => {
    const { ws, members } = await team('Domains');
    const list = () => call(t, 'GET', itemsUrl(ws, 'blog-post'), members.editor);
    await warm(list, 200);
    expect(
      (await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'] } })).statusCode,
    ).toBe(200);
    expect((await list()).statusCode).toBe(404);
  });
});
