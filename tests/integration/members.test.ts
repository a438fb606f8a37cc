import { eq } from 'drizzle-orm';
import { events } from '@server/db/schema';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { lastLink, readOutbox } from '../helpers/outbox';
import { newUserInput, signUp, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, user?: TestUser, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user?.auth ?? {}, payload });

/** A workspace with an Editor role that may edit blog posts, and a second person invited to it. */
async function workspaceWithEditor(name: string) {
  const ws = await createWorkspace(t.app, manager, name);
  await patchWorkspace(t.app, manager, ws.id, {
    roles: {
      ...ws.roles,
      editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] },
    },
  });
  const input = newUserInput({ name: 'Eve Editor' });
  const invited = await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
    email: input.email.toUpperCase(),
    roles: ['editor'],
  });
  expect(invited.statusCode).toBe(201);
  const editor = await verifiedUser(t, input);
  return { ws, editor };
}

describe('inviting', () => {
  it('mails the invitee, who joins with the invited roles once their email is verified', async () => {
    const ws = await createWorkspace(t.app, manager, 'Invites');
    await patchWorkspace(t.app, manager, ws.id, {
      roles: {
        ...ws.roles,
        editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] },
      },
    });
    const input = newUserInput({ name: 'Ivy Invitee' });
    const res = await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
      email: input.email,
      roles: ['editor'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: input.email,
      roles: ['editor'],
      isWorkspaceManager: false,
      invitedBy: 'Mia Manager',
    });
    // The mail named no role, and its link opened 'Welcome back / Sign in' for someone with no account.
    const link = new URL(lastLink(t.dataDir, input.email, '/auth/welcome'));
    expect(link.searchParams.get('email')).toBe(input.email);
    expect(link.searchParams.get('mode')).toBe('sign-up');
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.subject).toBe('Mia Manager invited you to Invites on Marquee');
    expect(mail.text).toContain(
      'Mia Manager invited you to join the workspace "Invites" on Marquee as Editor.',
    );
    expect(mail.text).toContain('Create your account and join');

    // Signed up but not verified: not yet a member.
    const pending = await signUp(t.app, input);
    expect((await api('GET', `/workspaces/${ws.id}`, pending)).statusCode).toBe(403);
    const list = (await api('GET', `/workspaces/${ws.id}/members`, manager)).json();
    expect(list.invitations.map((i: { email: string }) => i.email)).toEqual([input.email]);
  });

  it('gives the invited member exactly the rights of their role, and no management', async () => {
    const { ws, editor } = await workspaceWithEditor('Rights');
    const seen = (await api('GET', '/workspaces', editor)).json().workspaces;
    expect(seen).toEqual([{ id: ws.id, name: 'Rights', oobeDone: false, isWorkspaceManager: false }]);
    const workspace = (await api('GET', `/workspaces/${ws.id}`, editor)).json();
    expect(workspace.__permissions).toEqual({
      canEdit: ['blog-post'],
      canPublish: [],
      canApprove: [],
      canManageWorkspace: false,
      roles: ['editor'],
      customerData: [],
    });
    const members = (await api('GET', `/workspaces/${ws.id}/members`, editor)).json();
    expect(members.invitations).toEqual([]);
    expect(members.members.map((m: { displayName: string }) => m.displayName).sort()).toEqual([
      'Eve Editor',
      'Mia Manager',
    ]);
  });

  it('refuses settings and member changes from a member who is not a manager', async () => {
    const { ws, editor } = await workspaceWithEditor('No Admin');
    const denials = [
      await patchWorkspace(t.app, editor, ws.id, { basics: { name: 'Hijacked' } }),
      await api('POST', `/workspaces/${ws.id}/members/invitations`, editor, { email: 'friend@example.test' }),
      await api('PATCH', `/workspaces/${ws.id}/members/${editor.id}`, editor, { isWorkspaceManager: true }),
      await api('DELETE', `/workspaces/${ws.id}/members/invitations/friend@example.test`, editor),
    ];
    for (const res of denials) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('Only workspace managers can do this');
    }
    expect((await api('GET', `/workspaces/${ws.id}`, manager)).json().name).toBe('No Admin');
  });

  it('joins an already verified account on its next sign-in', async () => {
    const existing = await verifiedUser(t, { name: 'Sam Signin' });
    const ws = await createWorkspace(t.app, manager, 'Later');
    await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
      email: existing.email,
      isWorkspaceManager: true,
    });
    // Someone with an account is sent to sign in, and told what they will be.
    const link = new URL(lastLink(t.dataDir, existing.email, '/auth/welcome'));
    expect(link.searchParams.get('mode')).toBeNull();
    expect(link.searchParams.get('email')).toBe(existing.email);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.text).toContain('on Marquee as a workspace manager.');
    expect(mail.text).toContain('Sign in and join');
    const signIn = await api('POST', '/auth/sign-in', undefined, {
      email: existing.email,
      password: existing.password,
    });
    const again = { ...existing, auth: { authorization: `Bearer ${signIn.json().token}` } };
    const workspace = (await api('GET', `/workspaces/${ws.id}`, again)).json();
    expect(workspace.__permissions.canManageWorkspace).toBe(true);
  });

  it('refuses unknown roles, bad addresses and people who are already members', async () => {
    const { ws, editor } = await workspaceWithEditor('Checks');
    const unknownRole = await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
      email: 'a@b.test',
      roles: ['ghost'],
    });
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json().error.message).toBe('Role "ghost" does not exist');
    const badEmail = await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
      email: 'nope',
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.message).toBe('email: Enter a valid email address');
    const member = await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, {
      email: editor.email,
    });
    expect(member.statusCode).toBe(409);
  });

  it('revokes an invitation so it is never accepted', async () => {
    const ws = await createWorkspace(t.app, manager, 'Revoke');
    const input = newUserInput();
    await api('POST', `/workspaces/${ws.id}/members/invitations`, manager, { email: input.email });
    expect(
      (await api('DELETE', `/workspaces/${ws.id}/members/invitations/${input.email}`, manager)).statusCode,
    ).toBe(200);
    expect(
      (await api('DELETE', `/workspaces/${ws.id}/members/invitations/${input.email}`, manager)).statusCode,
    ).toBe(404);
    const user = await verifiedUser(t, input);
    expect((await api('GET', '/workspaces', user)).json().workspaces).toEqual([]);
  });
});

describe('managing members', () => {
  it('deactivating a member hides the workspace from them', async () => {
    const { ws, editor } = await workspaceWithEditor('Deactivate');
    const res = await api('PATCH', `/workspaces/${ws.id}/members/${editor.id}`, manager, { active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active: false, roles: ['editor'] });
    expect((await api('GET', '/workspaces', editor)).json().workspaces).toEqual([]);
    expect((await api('GET', `/workspaces/${ws.id}`, editor)).statusCode).toBe(404);
    await api('PATCH', `/workspaces/${ws.id}/members/${editor.id}`, manager, { active: true });
    expect((await api('GET', `/workspaces/${ws.id}`, editor)).statusCode).toBe(200);
  });

  it('changes roles and the manager flag', async () => {
    const { ws, editor } = await workspaceWithEditor('Promote');
    const res = await api('PATCH', `/workspaces/${ws.id}/members/${editor.id}`, manager, {
      roles: ['editor', 'admin'],
      isWorkspaceManager: true,
    });
    expect(res.json()).toMatchObject({ roles: ['editor', 'admin'], isWorkspaceManager: true });
    expect((await patchWorkspace(t.app, editor, ws.id, { basics: { name: 'Promoted' } })).statusCode).toBe(
      200,
    );
  });

  it('keeps at least one active manager', async () => {
    const ws = await createWorkspace(t.app, manager, 'Last Manager');
    for (const patch of [{ isWorkspaceManager: false }, { active: false }]) {
      const res = await api('PATCH', `/workspaces/${ws.id}/members/${manager.id}`, manager, patch);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('A workspace needs at least one active workspace manager');
    }
    expect((await api('GET', `/workspaces/${ws.id}`, manager)).json().__permissions.canManageWorkspace).toBe(
      true,
    );
  });

  it('answers 404 for unknown members and other workspaces, 401 without credentials', async () => {
    const ws = await createWorkspace(t.app, manager, 'Unknown Member');
    expect(
      (await api('PATCH', `/workspaces/${ws.id}/members/nobody`, manager, { active: false })).statusCode,
    ).toBe(404);
    expect(
      (await api('PATCH', `/workspaces/${ws.id}/members/${manager.id}`, outsider, { active: false }))
        .statusCode,
    ).toBe(404);
    expect(
      (await api('POST', `/workspaces/${ws.id}/members/invitations`, outsider, { email: 'x@y.test' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await api('PATCH', `/workspaces/${ws.id}/members/${manager.id}`, undefined, { active: false }))
        .statusCode,
    ).toBe(401);
    expect(
      (await api('POST', `/workspaces/${ws.id}/members/invitations`, undefined, { email: 'x@y.test' }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses unknown fields', async () => {
    const ws = await createWorkspace(t.app, manager, 'Strict');
    const res = await api('PATCH', `/workspaces/${ws.id}/members/${manager.id}`, manager, {
      email: 'x@y.test',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('analytics events', () => {
  it('stores who, which session, where and what; the workspace only for its members', async () => {
    const ws = await createWorkspace(t.app, manager, 'Events');
    const ok = await api('POST', '/events', manager, {
      eventType: 'page_view',
      url: `/${ws.id}/_items/all`,
      xmWs: ws.id,
    });
    expect(ok.statusCode).toBe(204);
    await api('POST', '/events', outsider, { eventType: 'page_view', url: '/x', xmWs: ws.id });
    await api('POST', '/events', undefined, {
      eventType: 'navigation_failed',
      url: '/nowhere',
      data: { message: 'boom' },
    });
    const rows = await t.database.db
      .select()
      .from(events)
      .where(eq(events.url, `/${ws.id}/_items/all`));
    expect(rows).toEqual([
      expect.objectContaining({ workspaceId: ws.id, userId: manager.id, eventType: 'page_view' }),
    ]);
    expect(rows[0].session).toEqual(expect.any(String));
    const foreign = await t.database.db.select().from(events).where(eq(events.url, '/x'));
    expect(foreign[0]).toMatchObject({ workspaceId: '', userId: outsider.id });
    const anonymous = await t.database.db.select().from(events).where(eq(events.url, '/nowhere'));
    expect(anonymous[0]).toMatchObject({ userId: '__anonymous', session: null, data: { message: 'boom' } });
  });

  it('answers 400 to an event without a type', async () => {
    const res = await api('POST', '/events', manager, { url: '/x' });
    expect(res.statusCode).toBe(400);
  });
});
