import { sql } from 'drizzle-orm';
import type { Item } from '@shared/api/items';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
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
/** 30 blog posts, oldest first; the first 5 written by the editor. */
let posts: Item[];
let audience: Item;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Lists',
    domains: ['blogging', 'marketing'],
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
  posts = [];
  for (let i = 0; i < 30; i++) {
    posts.push(
      await createItem(
        t,
        i < 5 ? editor : manager,
        team.ws,
        'blog-post',
        blogPostData({ name: `Post ${i}` }),
      ),
    );
  }
  audience = await createItem(t, manager, team.ws, 'audience', { name: 'Everyone' });
});
afterAll(() => t.close());

const list = async (user: TestUser, query: string, schema?: string) => {
  const res = await call(t, 'GET', `${itemsUrl(team.ws, schema)}?${query}`, user);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as { items: Item[]; nextCursor: string | null };
};
const ids = (items: Item[]) => items.map((i) => i.id);

describe('paging', () => {
  it('pages a schema by cursor, newest write first, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const page = await list(viewer, `limit=12${cursor ? `&cursor=${cursor}` : ''}`, 'blog-post');
      sizes.push(page.items.length);
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([12, 12, 6]);
    expect(seen).toEqual(ids(posts).reverse());
  });

  it('answers 24 items when no limit is given, and at most 100', async () => {
    expect((await list(viewer, '', 'blog-post')).items).toHaveLength(24);
    const tooMany = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?limit=101`, viewer);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('limit: limit must be at most 100');
    const zero = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?limit=0`, viewer);
    expect(zero.statusCode).toBe(400);
  });

  it('refuses a cursor it did not make', async () => {
    const res = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?cursor=garbage`, viewer);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Invalid cursor: ask for the first page again');
  });

  it('lists every enabled schema in the workspace-wide view', async () => {
    const all = await list(viewer, 'limit=100');
    expect(all.items).toHaveLength(31);
    expect(all.items[0].id).toBe(audience.id);
    expect(new Set(all.items.map((i) => i.schema))).toEqual(new Set(['blog-post', 'audience']));
  });
});

describe('saved views', () => {
  it('last-updated-by-me holds what the caller wrote last', async () => {
    const mine = await list(editor, 'view=last-updated-by-me&limit=100');
    expect(ids(mine.items)).toEqual(ids(posts.slice(0, 5)).reverse());
    expect((await list(viewer, 'view=last-updated-by-me')).items).toEqual([]);
  });

  it('need-my-approval holds items waiting on one of my roles until that role approves this version', async () => {
    const waiting = await list(legal, 'view=need-my-approval&limit=100');
    expect(waiting.items).toHaveLength(30);
    expect(waiting.items.every((i) => i.schema === 'blog-post' && i.abilities.canApprove)).toBe(true);
    const [first, second] = posts;
    expect((await approve(t, legal, team.ws, 'blog-post', first.id, 'legal')).statusCode).toBe(200);
    expect((await approve(t, legal, team.ws, 'blog-post', second.id, 'legal')).statusCode).toBe(200);
    const after = await list(legal, 'view=need-my-approval&limit=100', 'blog-post');
    expect(after.items).toHaveLength(28);
    expect(ids(after.items)).not.toContain(first.id);
    await saveItem(t, editor, team.ws, 'blog-post', first.id, blogPostData({ name: 'Changed' }));
    expect(ids((await list(legal, 'view=need-my-approval&limit=100')).items)).toContain(first.id);
    expect((await list(manager, 'view=need-my-approval')).items).toEqual([]);
    expect((await list(viewer, 'view=need-my-approval')).items).toEqual([]);
  });

  it('published-in, outdated-in and aging-in follow the stage copies', async () => {
    const ws = await teamWorkspace(t, manager, { name: 'Stage Views', roles: {}, people: {} });
    const [a, b, c] = [
      await createItem(t, manager, ws.ws, 'blog-post', blogPostData({ name: 'A' })),
      await createItem(t, manager, ws.ws, 'blog-post', blogPostData({ name: 'B' })),
      await createItem(t, manager, ws.ws, 'blog-post', blogPostData({ name: 'C' })),
    ];
    for (const item of [a, b])
      expect((await publish(t, manager, ws.ws, 'blog-post', item.id)).statusCode).toBe(200);
    expect((await publish(t, manager, ws.ws, 'blog-post', c.id, 'staging')).statusCode).toBe(200);
    await saveItem(t, manager, ws.ws, 'blog-post', a.id, blogPostData({ name: 'A2' }));
    await t.database.db.execute(
      sql`update published set published_at = now() - interval '31 days' where workspace_id = ${ws.ws} and id = ${b.id}`,
    );
    const view = async (query: string, schema?: string) => {
      const res = await call(t, 'GET', `${itemsUrl(ws.ws, schema)}?${query}`, manager);
      return ids(res.json().items);
    };
    expect(await view('view=published-in&stage=live')).toEqual([a.id, b.id]);
    expect(await view('view=published-in-staging')).toEqual([c.id]);
    expect(await view('view=outdated-in&stage=live')).toEqual([a.id]);
    expect(await view('view=outdated-in&stage=live', 'blog-post')).toEqual([a.id]);
    expect(await view('view=aging-in&stage=live')).toEqual([b.id]);
    expect(await view('view=aging-in&stage=staging')).toEqual([]);
    await publish(t, manager, ws.ws, 'blog-post', a.id);
    expect(await view('view=outdated-in&stage=live')).toEqual([]);
    const statuses = (await call(t, 'GET', `${itemsUrl(ws.ws)}?view=published-in&stage=live`, manager)).json()
      .items;
    expect(statuses.map((i: Item) => i.publishStatus)).toEqual([
      { live: 'CURRENT', staging: 'NOT_PUBLISHED' },
      { live: 'CURRENT', staging: 'NOT_PUBLISHED' },
    ]);
  });

  it('pages stage views by cursor too', async () => {
    const ws = await teamWorkspace(t, manager, { name: 'Stage Paging', roles: {}, people: {} });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const item = await createItem(t, manager, ws.ws, 'blog-post', blogPostData({ name: `P${i}` }));
      await publish(t, manager, ws.ws, 'blog-post', item.id);
      made.push(item.id);
    }
    const first = (
      await call(t, 'GET', `${itemsUrl(ws.ws)}?view=published-in&stage=live&limit=2`, manager)
    ).json();
    const second = (
      await call(
        t,
        'GET',
        `${itemsUrl(ws.ws)}?view=published-in&stage=live&limit=2&cursor=${first.nextCursor}`,
        manager,
      )
    ).json();
    const third = (
      await call(
        t,
        'GET',
        `${itemsUrl(ws.ws)}?view=published-in&stage=live&limit=2&cursor=${second.nextCursor}`,
        manager,
      )
    ).json();
    expect([...ids(first.items), ...ids(second.items), ...ids(third.items)]).toEqual(made.reverse());
    expect(third.nextCursor).toBeNull();
  });

  it('refuses unknown views and stages with clear messages', async () => {
    const unknown = await call(t, 'GET', `${itemsUrl(team.ws)}?view=favourites`, viewer);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('Unknown view "favourites"');
    const noStage = await call(t, 'GET', `${itemsUrl(team.ws)}?view=published-in`, viewer);
    expect(noStage.statusCode).toBe(400);
    expect(noStage.json().error.message).toBe('The view "published-in" needs a stage');
    const badStage = await call(t, 'GET', `${itemsUrl(team.ws)}?view=aging-in&stage=mars`, viewer);
    expect(badStage.statusCode).toBe(404);
    expect(badStage.json().error.message).toBe('Stage "mars" not found in this workspace');
  });
});
