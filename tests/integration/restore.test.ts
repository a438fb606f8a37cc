import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  getItem,
  itemUrl,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let legal: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Res Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Restoring',
    roles: {
      legal: role('Legal', { mustApprove: ['blog-post'] }),
      viewer: role('Viewer', {}),
    },
    people: { 'Leo Legal': ['legal'], 'Val Viewer': ['viewer'] },
  });
  ({ 'Leo Legal': legal, 'Val Viewer': viewer } = team.members);
});
afterAll(() => t.close());

const restoreUrl = (id: string, num: number) => `${itemUrl(team.ws, 'blog-post', id)}/history/${num}/restore`;

describe('restore a version', () => {
  it('saves that version’s data as a new version, and approvals start over', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ excerpt: 'first' }));
    await saveItem(t, manager, team.ws, 'blog-post', item.id, blogPostData({ excerpt: 'second' }), 1);
    expect((await approve(t, legal, team.ws, 'blog-post', item.id, 'legal')).statusCode).toBe(200);
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).remainingApprovals).toEqual([]);

    const res = await call(t, 'POST', restoreUrl(item.id, 1), manager, { baseVersion: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      version: 3,
      data: { excerpt: 'first' },
      remainingApprovals: ['legal'],
    });

    const history = (
      await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', item.id)}/history`, manager)
    ).json();
    expect(history.versions.map((v: { num: number }) => v.num)).toEqual([3, 2, 1]);
    const v3 = (await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', item.id)}/history/3`, manager)).json();
    expect(v3.data.excerpt).toBe('first');

    const audit = (
      await call(t, 'GET', `/api/v1/workspaces/${team.ws}/audit?action=item.restored`, manager)
    ).json();
    expect(audit.entries[0]).toMatchObject({ targetId: item.id, detail: { version: 3, restoredFrom: 1 } });
  });

  it('answers 409 to a stale base version and 404 to a version or item that does not exist', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData());
    await saveItem(t, manager, team.ws, 'blog-post', item.id, blogPostData({ excerpt: 'b' }), 1);
    const stale = await call(t, 'POST', restoreUrl(item.id, 1), manager, { baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect((await call(t, 'POST', restoreUrl(item.id, 1), manager, {}, { 'if-match': '1' })).statusCode).toBe(
      409,
    );
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).version).toBe(2);
    const missing = await call(t, 'POST', restoreUrl(item.id, 9), manager, {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Version not found');
    expect((await call(t, 'POST', restoreUrl('nope', 1), manager, {})).statusCode).toBe(404);
  });

  it('is refused to strangers (401, 404) and members without the edit right (403)', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData());
    expect((await call(t, 'POST', restoreUrl(item.id, 1), undefined, {})).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Str' });
    expect((await call(t, 'POST', restoreUrl(item.id, 1), stranger, {})).statusCode).toBe(404);
    const denied = await call(t, 'POST', restoreUrl(item.id, 1), viewer, {});
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to edit Blog Posts');
  });
});
