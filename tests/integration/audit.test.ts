import type { AuditEntry } from '@shared/api/delivery';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  itemUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let legal: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Aud Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Audited',
    roles: { legal: role('Legal', { mustApprove: [] }) },
    people: { 'Lee Legal': ['legal'] },
  });
  legal = team.members['Lee Legal'];
});
afterAll(() => t.close());

const auditUrl = (query = '') => `/api/v1/workspaces/${team.ws}/audit${query ? `?${query}` : ''}`;

async function entries(query = ''): Promise<AuditEntry[]> {
  const res = await call(t, 'GET', auditUrl(query), manager);
  expect(res.statusCode).toBe(200);
  return res.json().entries;
}

describe('audit log', () => {
  it('records who did what to which item, role, member and key, from which address', async () => {
    const { ws } = team;
    const item = await createItem(t, manager, ws, 'blog-post', blogPostData());
    await saveItem(t, manager, ws, 'blog-post', item.id, blogPostData({ excerpt: 'v2' }), 1);

    const current = (await call(t, 'GET', `/api/v1/workspaces/${ws}`, manager)).json();
    const roles = { ...current.roles, legal: role('Legal', { mustApprove: ['blog-post'] }) };
    expect((await call(t, 'PATCH', `/api/v1/workspaces/${ws}`, manager, { roles })).statusCode).toBe(200);
    expect((await approve(t, legal, ws, 'blog-post', item.id, 'legal')).statusCode).toBe(200);
    expect((await publish(t, manager, ws, 'blog-post', item.id)).statusCode).toBe(200);
    expect(
      (await call(t, 'DELETE', `${itemUrl(ws, 'blog-post', item.id)}/publish/live`, manager)).statusCode,
    ).toBe(200);

    const invite = await call(t, 'POST', `/api/v1/workspaces/${ws}/members/invitations`, manager, {
      email: 'new@example.test',
      roles: ['legal'],
    });
    expect(invite.statusCode).toBe(201);
    expect(
      (await call(t, 'DELETE', `/api/v1/workspaces/${ws}/members/invitations/new@example.test`, manager))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, 'PATCH', `/api/v1/workspaces/${ws}/members/${legal.id}`, manager, { roles: [] }))
        .statusCode,
    ).toBe(200);

    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, { name: 'Web', stages: ['live'] })
    ).json();
    expect((await call(t, 'DELETE', `/api/v1/workspaces/${ws}/api-keys/${key.id}`, manager)).statusCode).toBe(
      200,
    );
    expect((await call(t, 'DELETE', itemUrl(ws, 'blog-post', item.id), manager)).statusCode).toBe(200);

    const log = await entries('limit=100');
    const summary = log.map((e) => [e.action, e.targetType, e.targetId, e.userName]).reverse();
    expect(summary).toEqual(
      expect.arrayContaining([
        ['item.created', 'item', item.id, 'Aud Manager'],
        ['item.saved', 'item', item.id, 'Aud Manager'],
        ['roles.updated', 'workspace', ws, 'Aud Manager'],
        ['item.approved', 'item', item.id, 'Lee Legal'],
        ['item.published', 'item', item.id, 'Aud Manager'],
        ['item.unpublished', 'item', item.id, 'Aud Manager'],
        ['member.invited', 'member', 'new@example.test', 'Aud Manager'],
        ['invitation.revoked', 'member', 'new@example.test', 'Aud Manager'],
        ['member.updated', 'member', legal.id, 'Aud Manager'],
        ['api-key.created', 'api-key', key.id, 'Aud Manager'],
        ['api-key.revoked', 'api-key', key.id, 'Aud Manager'],
        ['item.deleted', 'item', item.id, 'Aud Manager'],
      ]),
    );
    const saved = log.find((e) => e.action === 'item.saved')!;
    expect(saved).toMatchObject({ schema: 'blog-post', detail: { version: 2 }, address: '127.0.0.1' });
    // Every kind of row names the request's address: the item save's CTE and recordAudit alike.
    expect(log.filter((e) => e.address !== '127.0.0.1').map((e) => e.action)).toEqual([]);
    expect(log.find((e) => e.action === 'item.published')!.detail).toEqual({ stage: 'live', version: 2 });
    // Newest first.
    expect(log[0].action).toBe('item.deleted');
  });

  it('names the address of the request that acted, for requests under way at once', async () => {
    // The address was once kept in an AsyncLocalStorage; it now travels with the caller of each request.
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData());
    const fromAddress = (remoteAddress: string, excerpt: string) =>
      t.app.inject({
        method: 'PUT',
        url: itemUrl(team.ws, 'blog-post', item.id),
        headers: manager.auth,
        payload: { data: blogPostData({ excerpt }) },
        remoteAddress,
      });
    const answers = await Promise.all([
      fromAddress('192.0.2.10', 'first'),
      fromAddress('198.51.100.20', 'second'),
      fromAddress('192.0.2.10', 'third'),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const saves = (await entries('action=item.saved&limit=100')).filter((e) => e.targetId === item.id);
    const byVersion = Object.fromEntries(
      saves.map((e) => [(e.detail as { version: number }).version, e.address]),
    );
    const addressOfExcerpt = Object.fromEntries(
      await Promise.all(
        [2, 3, 4].map(async (version) => {
          const res = await call(
            t,
            'GET',
            `${itemUrl(team.ws, 'blog-post', item.id)}/history/${version}`,
            manager,
          );
          return [res.json().data.excerpt, byVersion[version]];
        }),
      ),
    );
    expect(addressOfExcerpt).toEqual({ first: '192.0.2.10', second: '198.51.100.20', third: '192.0.2.10' });
  });

  it('writes no audit row when the change is refused', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData());
    const before = (await entries('limit=100')).length;
    expect(
      (
        await call(t, 'PUT', itemUrl(team.ws, 'blog-post', item.id), manager, {
          data: blogPostData(),
          baseVersion: 7,
        })
      ).statusCode,
    ).toBe(409);
    expect((await entries('limit=100')).length).toBe(before);
  });

  it('filters by user, action and date and pages newest first', async () => {
    const byLegal = await entries(`user=${legal.id}`);
    expect(byLegal.length).toBeGreaterThan(0);
    expect(byLegal.every((e) => e.userId === legal.id)).toBe(true);
    const saves = await entries('action=item.saved');
    expect(saves.every((e) => e.action === 'item.saved')).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await entries(`from=${encodeURIComponent(future)}`)).toEqual([]);
    expect((await entries(`to=${encodeURIComponent(future)}&limit=100`)).length).toBeGreaterThan(5);

    const all = await entries('limit=100');
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(t, 'GET', auditUrl(`limit=4${cursor ? `&cursor=${cursor}` : ''}`), manager);
      const page = res.json();
      seen.push(...page.entries.map((e: AuditEntry) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));

    expect((await call(t, 'GET', auditUrl('action=nope'), manager)).statusCode).toBe(400);
    expect((await call(t, 'GET', auditUrl('from=yesterday'), manager)).statusCode).toBe(400);
  });

  it('is for managers of the workspace only', async () => {
    expect((await call(t, 'GET', auditUrl())).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Stra Nger' });
    expect((await call(t, 'GET', auditUrl(), stranger)).statusCode).toBe(404);
    expect((await call(t, 'GET', auditUrl(), legal)).statusCode).toBe(403);
  });
});
