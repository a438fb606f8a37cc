import { allSchemaNames } from '@shared/schemas/catalogue';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { signUp, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Olivia Owner' });
  outsider = await verifiedUser(t, { name: 'Oscar Outsider' });
});
afterAll(() => t.close());

const get = (url: string, user?: TestUser) =>
  t.app.inject({ url: `/api/v1${url}`, headers: user?.auth ?? {} });

describe('creating a workspace', () => {
  it('uses the name slug as id, the spec defaults, and makes the creator an Admin manager', async () => {
    const ws = await createWorkspace(t.app, owner, 'Spring Campaign 2027');
    expect(ws).toMatchObject({
      id: 'spring-campaign-2027',
      name: 'Spring Campaign 2027',
      basics: {
        name: 'Spring Campaign 2027',
        domains: ['blogging'],
        stages: ['Live'],
        timezones: [
          'America/Los_Angeles',
          'America/Phoenix',
          'America/Denver',
          'America/Chicago',
          'America/New_York',
        ],
        dateFormat: 'relative',
      },
      oobe: { done: false },
      version: 1,
    });
    expect(ws.roles.admin).toEqual({
      name: 'Admin',
      canEdit: allSchemaNames(),
      canPublish: allSchemaNames(),
      mustApprove: [],
      customerData: ['read', 'export', 'erase'],
    });
    const perms = (ws as unknown as { __permissions: Record<string, unknown> }).__permissions;
    expect(perms).toMatchObject({ canManageWorkspace: true, roles: ['admin'], canApprove: [] });
    expect(perms.canEdit).toEqual([...allSchemaNames()].sort());
  });

  it('gives a taken or reserved name a free id', async () => {
    const a = await createWorkspace(t.app, owner, 'Twin');
    const b = await createWorkspace(t.app, outsider, 'Twin');
    expect([a.id, b.id]).toEqual(['twin', 'twin-2']);
    expect((await createWorkspace(t.app, owner, 'API')).id).toBe('api-workspace');
    expect((await createWorkspace(t.app, owner, '!!!')).id).toBe('workspace');
  });

  it('refuses a blank name and unverified or anonymous callers', async () => {
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: owner.auth,
      payload: { name: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe('name: Name is required');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      payload: { name: 'X' },
    });
    expect(anonymous.statusCode).toBe(401);
    const unverified = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: unverified.auth,
      payload: { name: 'X' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('Please verify your email address first');
  });
});

describe('listing and reading', () => {
  it('lists only workspaces where the caller is an active member', async () => {
    const mine = await createWorkspace(t.app, owner, 'Listed Here');
    const list = (await get('/workspaces', owner)).json().workspaces;
    expect(list).toContainEqual({
      id: mine.id,
      name: 'Listed Here',
      oobeDone: false,
      isWorkspaceManager: true,
    });
    const theirs = (await get('/workspaces', outsider)).json().workspaces.map((w: { id: string }) => w.id);
    expect(theirs).not.toContain(mine.id);
  });

  it.each(['', '/subscription', '/batches', '/members'])(
    'answers 404 Workspace not found to a non-member on %s',
    async (suffix) => {
      const ws = await createWorkspace(t.app, owner, 'Private Things');
      const res = await get(`/workspaces/${ws.id}${suffix}`, outsider);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Workspace not found');
      expect((await get(`/workspaces/does-not-exist${suffix}`, outsider)).json()).toEqual(res.json());
    },
  );

  it.each(['', '/subscription', '/batches', '/members'])(
    'answers 401 without credentials on %s',
    async (suffix) => {
      const ws = await createWorkspace(t.app, owner, 'Guarded');
      expect((await get(`/workspaces/${ws.id}${suffix}`)).statusCode).toBe(401);
    },
  );

  it('answers 404 rather than 500 to an id that cannot be a workspace', async () => {
    expect((await get('/workspaces/NOT_A%20SLUG', owner)).statusCode).toBe(404);
  });

  it('reports plan and usage, and an empty list of batches', async () => {
    const ws = await createWorkspace(t.app, owner, 'Usage');
    expect((await get(`/workspaces/${ws.id}/subscription`, owner)).json()).toEqual({
      plan: 'free',
      usage: { members: 1, items: 0, storageBytes: 0 },
    });
    expect((await get(`/workspaces/${ws.id}/batches`, owner)).json()).toEqual({ batches: [] });
  });
});

describe('saving basics, roles and onboarding', () => {
  it('normalises stages with Live always present and bumps the version', async () => {
    const ws = await createWorkspace(t.app, owner, 'Stages');
    const res = await patchWorkspace(t.app, owner, ws.id, {
      basics: { stages: ['Staging', 'staging', 'Pre Production'], domains: ['blogging', 'marketing'] },
      baseVersion: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().basics.stages).toEqual(['Staging', 'Pre Production', 'Live']);
    expect(res.json().basics.domains).toEqual(['blogging', 'marketing']);
    expect(res.json().version).toBe(2);
  });

  it('answers 409 to a stale save and changes nothing', async () => {
    const ws = await createWorkspace(t.app, owner, 'Stale');
    expect(
      (await patchWorkspace(t.app, owner, ws.id, { basics: { name: 'First' }, baseVersion: 1 })).statusCode,
    ).toBe(200);
    const stale = await patchWorkspace(t.app, owner, ws.id, { basics: { name: 'Second' }, baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict');
    const now = (await get(`/workspaces/${ws.id}`, owner)).json();
    expect(now).toMatchObject({ name: 'First', version: 2 });
  });

  it.each([
    [{ basics: { domains: ['blogging', 'spaceships'] } }, 'Domain "spaceships" not available'],
    [{ basics: { timezones: ['Mars/Olympus_Mons'] } }, 'Unknown time zone "Mars/Olympus_Mons"'],
    [{ basics: { name: '' } }, 'basics.name: Name is required'],
    [{ surprise: true }, 'Unrecognized key: "surprise"'],
    [
      { roles: { 'Bad Id': { name: 'x', canEdit: [], canPublish: [], mustApprove: [] } } },
      'roles.Bad Id: Role ids are lowercase words joined by dashes',
    ],
  ])('answers 400 to %o', async (payload, message) => {
    const ws = await createWorkspace(t.app, owner, 'Bad Input');
    const res = await patchWorkspace(t.app, owner, ws.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(message);
    expect((await get(`/workspaces/${ws.id}`, owner)).json().version).toBe(1);
  });

  it('trims role lists to schemas that exist, and members to roles that exist', async () => {
    const ws = await createWorkspace(t.app, owner, 'Trim');
    const res = await patchWorkspace(t.app, owner, ws.id, {
      roles: {
        writer: {
          name: 'Writer',
          canEdit: ['blog-post', 'no-such-schema', 'blog-post'],
          canPublish: [],
          mustApprove: ['gone'],
        },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().roles).toEqual({
      writer: { name: 'Writer', canEdit: ['blog-post'], canPublish: [], mustApprove: [], customerData: [] },
    });
    // The owner held only 'admin', which no longer exists: their role list is trimmed, their manager flag stays.
    const members = (await get(`/workspaces/${ws.id}/members`, owner)).json().members;
    expect(members[0]).toMatchObject({ roles: [], isWorkspaceManager: true });
    expect(res.json().__permissions).toMatchObject({ canEdit: [], canManageWorkspace: true });
  });

  it('marks onboarding done', async () => {
    const ws = await createWorkspace(t.app, owner, 'Onboard');
    const res = await patchWorkspace(t.app, owner, ws.id, {
      basics: { name: 'Onboarded', timezones: ['Europe/Paris'] },
      oobe: { done: true },
    });
    expect(res.json()).toMatchObject({
      name: 'Onboarded',
      oobe: { done: true },
      basics: { timezones: ['Europe/Paris'] },
    });
    const listed = (await get('/workspaces', owner))
      .json()
      .workspaces.find((w: { id: string }) => w.id === ws.id);
    expect(listed).toMatchObject({ name: 'Onboarded', oobeDone: true });
  });

  it('answers 404 to a non-member and 401 without credentials', async () => {
    const ws = await createWorkspace(t.app, owner, 'Not Yours');
    expect((await patchWorkspace(t.app, outsider, ws.id, { oobe: { done: true } })).statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${ws.id}`,
      payload: { oobe: { done: true } },
    });
    expect(res.statusCode).toBe(401);
  });
});
