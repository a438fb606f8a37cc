import { count, eq } from 'drizzle-orm';
import { publishedSlugs } from '@server/db/schema';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  itemUrl,
  publish,
  saveItem,
  teamWorkspace,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let ws: string;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Sam Slugs' });
  ({ ws } = await teamWorkspace(t, manager, { name: 'Slugs', roles: {}, people: {} }));
  const res = await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, {
    name: 'Site',
    stages: ['live'],
  });
  key = res.json().key;
});
afterAll(() => t.close());

const read = (path: string) =>
  t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${ws}/live/items/${path}`,
    headers: { authorization: `Bearer ${key}` },
  });

describe('delivery by slug', () => {
  it('finds an item by its slug, by filter[slug], and by a slug it had, naming the old ones', async () => {
    const item = await createItem(
      t,
      manager,
      ws,
      'blog-post',
      blogPostData({ name: 'Autumn tea', slug: 'autumn-tea' }),
    );
    await publish(t, manager, ws, 'blog-post', item.id);

    const bySlug = await read('blog-post/by-slug/autumn-tea');
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.json()).toMatchObject({ id: item.id, data: { slug: 'autumn-tea' }, previousSlugs: [] });
    const filtered = (await read('blog-post?filter[slug]=autumn-tea')).json();
    expect(filtered.items.map((i: { id: string }) => i.id)).toEqual([item.id]);

    await saveItem(
      t,
      manager,
      ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Autumn tea', slug: 'autumn-tea-2026' }),
      1,
    );
    // Saved is not published: the site still finds the old slug.
    expect((await read('blog-post/by-slug/autumn-tea')).json().data.slug).toBe('autumn-tea');
    expect((await read('blog-post/by-slug/autumn-tea-2026')).statusCode).toBe(404);

    await publish(t, manager, ws, 'blog-post', item.id);
    const current = (await read('blog-post/by-slug/autumn-tea-2026')).json();
    expect(current).toMatchObject({ id: item.id, previousSlugs: ['autumn-tea'] });
    // The old URL still finds the item, so a site can redirect it to the new slug.
    const old = (await read('blog-post/by-slug/autumn-tea')).json();
    expect(old).toMatchObject({
      id: item.id,
      data: { slug: 'autumn-tea-2026' },
      previousSlugs: ['autumn-tea'],
    });
    expect((await read('blog-post?filter[slug]=autumn-tea')).json().items).toEqual([]);
    expect((await read('blog-post?filter[slug]=autumn-tea-2026')).json().items[0].previousSlugs).toEqual([
      'autumn-tea',
    ]);

    // Unpublished, no slug finds it; published again, it still remembers the old URL.
    await call(t, 'DELETE', `${itemUrl(ws, 'blog-post', item.id)}/publish/live`, manager);
    expect((await read('blog-post/by-slug/autumn-tea-2026')).statusCode).toBe(404);
    expect((await read('blog-post/by-slug/autumn-tea')).statusCode).toBe(404);
    await publish(t, manager, ws, 'blog-post', item.id);
    expect((await read('blog-post/by-slug/autumn-tea')).json().previousSlugs).toEqual(['autumn-tea']);
  });

  it('answers 404 for a schema without slugs and for unknown slugs, and keeps slugs per workspace', async () => {
    const missing = await read('blog-post/by-slug/no-such-post');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Item not published in this stage');
    expect((await read(`blog-post/by-slug/${'a'.repeat(300)}`)).statusCode).toBe(404);
    const tooLong = await read(`blog-post/by-slug/${'a'.repeat(401)}`);
    // Path parameters out of shape answer 404 with the reason, as every route's do.
    expect(tooLong.statusCode).toBe(404);
    expect(tooLong.json().error.message).toBe('slug is at most 400 characters');
    expect((await read('blog-post/by-slug/%00')).statusCode).toBe(400);
    const noSlugs = await read('copy/by-slug/anything');
    expect(noSlugs.statusCode).toBe(404);
    expect(noSlugs.json().error.message).toBe('Schema "copy" has no slug');
  });

  it('removes the slugs of a deleted item', async () => {
    const item = await createItem(t, manager, ws, 'blog-post', blogPostData({ name: 'Gone', slug: 'gone' }));
    await publish(t, manager, ws, 'blog-post', item.id);
    expect((await read('blog-post/by-slug/gone')).statusCode).toBe(200);
    expect((await call(t, 'DELETE', itemUrl(ws, 'blog-post', item.id), manager)).statusCode).toBe(200);
    expect((await read('blog-post/by-slug/gone')).statusCode).toBe(404);
    const [left] = await t.database.db
      .select({ n: count() })
      .from(publishedSlugs)
      .where(eq(publishedSlugs.id, item.id));
    expect(left.n).toBe(0);
  });
});
