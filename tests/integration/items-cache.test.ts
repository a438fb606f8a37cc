// Item reads (one item, the first pages of a schema) are answered from memory (items/cache.ts): every
// write that changes what they answer must show on the very next read, and the cache must never let a
// caller past the membership and workspace checks or lend them another caller's abilities.
import type { Item } from '@shared/api/items';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  itemUrl,
  itemsUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let editor: TestUser;
let legal: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  expect(t.config.readCacheTtlMs).toBeGreaterThan(0);
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Cached reads',
    roles: {
      editor: role('Editor', { canEdit: ['blog-post'] }),
      legal: role('Legal', { mustApprove: ['blog-post'] }),
      viewer: role('Viewer', {}),
    },
    people: { 'Eve Editor': ['editor'], 'Leo Legal': ['legal'], 'Val Viewer': ['viewer'] },
  });
  editor = team.members['Eve Editor'];
  legal = team.members['Leo Legal'];
  viewer = team.members['Val Viewer'];
});
afterAll(() => t.close());

const read = async (id: string, user: TestUser = manager) => {
  const res = await call(t, 'GET', itemUrl(team.ws, 'blog-post', id), user);
  return { status: res.statusCode, item: res.json() as Item };
};
const firstPage = async (user: TestUser = manager) => {
  const res = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?limit=12`, user);
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: Item[] }).items;
};
/** Reads the item and the first page twice, so the second read surely came from the cache. */
async function warm(id: string) {
  for (let i = 0; i < 2; i++) {
    expect((await read(id)).status).toBe(200);
    await firstPage();
  }
}
const inPage = async (id: string) => (await firstPage()).find((item) => item.id === id);

describe('every write shows on the next read', () => {
  it('create: the new item heads the first page', async () => {
    const first = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'First' }));
    await warm(first.id);
    const second = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Second' }));
    expect((await firstPage())[0].id).toBe(second.id);
  });

  it('save and restore: the new version, data and writer', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Draft' }));
    await warm(item.id);
    await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'Edited' }), 1);
    const saved = (await read(item.id)).item;
    expect(saved).toMatchObject({ version: 2, data: { name: 'Edited' }, lastWrittenByName: 'Eve Editor' });
    expect((await inPage(item.id))?.data.name).toBe('Edited');

    await warm(item.id);
    const restored = await call(
      t,
      'POST',
      `${itemUrl(team.ws, 'blog-post', item.id)}/history/1/restore`,
      manager,
      {
        baseVersion: 2,
      },
    );
    expect(restored.statusCode).toBe(200);
    expect((await read(item.id)).item).toMatchObject({ version: 3, data: { name: 'Draft' } });
    expect((await inPage(item.id))?.version).toBe(3);
  });

  it('approve, publish and unpublish: approvals and stage copies', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Reviewed' }));
    await warm(item.id);
    expect((await approve(t, legal, team.ws, 'blog-post', item.id, 'legal')).statusCode).toBe(200);
    const approved = (await read(item.id)).item;
    expect(approved.fullyApproved).toBe(true);
    expect(approved.approvedBy.map((a) => a.byName)).toEqual(['Leo Legal']);
    expect((await inPage(item.id))?.fullyApproved).toBe(true);

    await warm(item.id);
    expect((await publish(t, manager, team.ws, 'blog-post', item.id, 'live')).statusCode).toBe(200);
    expect(Object.keys((await read(item.id)).item.published)).toEqual(['live']);
    expect(Object.keys((await inPage(item.id))!.published)).toEqual(['live']);
    // A save answers its stage copies from the save statement itself: the same JSON a read answers.
    const saved = await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Reviewed 2' }),
    );
    expect(saved.publishStatus.live).toBe('MODIFIED');
    expect((await read(item.id)).item).toEqual(saved);

    await warm(item.id);
    const unpublished = await call(
      t,
      'DELETE',
      `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`,
      manager,
    );
    expect(unpublished.statusCode).toBe(200);
    expect((await read(item.id)).item.published).toEqual({});
    expect((await inPage(item.id))?.published).toEqual({});
  });

  it('delete: 404 and gone from the page', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Doomed' }));
    await warm(item.id);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), manager)).statusCode).toBe(200);
    expect((await read(item.id)).status).toBe(404);
    expect(await inPage(item.id)).toBeUndefined();
  });

  it("a member's new name: the writer's name of their items", async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Named' }));
    await warm(item.id);
    const renamed = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${editor.id}`, manager, {
      displayName: 'Eve Renamed',
    });
    expect(renamed.statusCode).toBe(200);
    expect((await read(item.id)).item.lastWrittenByName).toBe('Eve Renamed');
    expect((await inPage(item.id))?.lastWrittenByName).toBe('Eve Renamed');
  });
});

describe('the cache checks callers as before', () => {
  it('answers each caller with their own abilities', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Shared' }));
    await warm(item.id);
    expect((await read(item.id, manager)).item.abilities).toMatchObject({ canEdit: true, canPublish: true });
    expect((await read(item.id, viewer)).item.abilities).toEqual({
      canEdit: false,
      canPublish: false,
      canApprove: false,
      canDelete: false,
    });
    expect((await read(item.id, legal)).item.abilities.canApprove).toBe(true);
    expect((await firstPage(viewer)).find((i) => i.id === item.id)?.abilities.canEdit).toBe(false);
  });

  it('answers 404 to strangers, through another workspace, and to a deactivated member', async () => {
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Private' }));
    await warm(item.id);
    const stranger = await verifiedUser(t, { name: 'Sam Stranger' });
    expect((await read(item.id, stranger)).status).toBe(404);
    expect((await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?limit=12`, stranger)).statusCode).toBe(
      404,
    );
    expect((await call(t, 'GET', itemUrl(team.ws, 'blog-post', item.id))).statusCode).toBe(401);

    // The stranger's own workspace, asked for the cached item's id: not found there.
    const own = await teamWorkspace(t, stranger, { name: 'Elsewhere', roles: {}, people: {} });
    expect((await call(t, 'GET', itemUrl(own.ws, 'blog-post', item.id), stranger)).statusCode).toBe(404);
    const page = await call(t, 'GET', `${itemsUrl(own.ws, 'blog-post')}?limit=12`, stranger);
    expect(page.json().items).toEqual([]);

    expect((await read(item.id, viewer)).status).toBe(200);
    const off = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${viewer.id}`, manager, {
      active: false,
    });
    expect(off.statusCode).toBe(200);
    expect((await read(item.id, viewer)).status).toBe(404);
    await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${viewer.id}`, manager, { active: true });
  });
});
