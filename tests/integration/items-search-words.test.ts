import { sql } from 'drizzle-orm';
import type { AppContext } from '@server/context';
import { rows } from '@server/db/migrate';
import { sweepDueWork } from '@server/jobs/sweep';
import { fillPendingSearchTexts } from '@server/items/search-text';
import { migrateWorkspaceData } from '@server/model/migrate';
import { richTextReader } from '@server/sanitize/rich-text-reader';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  itemsUrl,
  itemUrl,
  teamWorkspace,
  type Team,
} from '../factories/items';

// Broke: the list's search looked only at names and titles, so a word in a post's body found nothing.
let t: TestApp;
let manager: TestUser;
let team: Team;
let ctx: AppContext;
beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Max Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Search Words',
    domains: ['blogging', 'marketing'],
    roles: {},
    people: {},
  });
  ctx = {
    db: t.database.db,
    config: t.config,
    itemFieldReaders: { 'rich-text': richTextReader },
  } as AppContext;
});
afterAll(() => t.close());

/** Every item the search answers, page after page. */
async function searchAll(
  q: string,
  schema?: string,
): Promise<{ id: string; data: Record<string, unknown> }[]> {
  const found: { id: string; data: Record<string, unknown> }[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ q, limit: '5', ...(cursor ? { cursor } : {}) });
    const res = await call(t, 'GET', `${itemsUrl(team.ws, schema)}?${query}`, manager);
    expect(res.statusCode).toBe(200);
    const page = res.json() as {
      items: { id: string; data: Record<string, unknown> }[];
      nextCursor: string | null;
    };
    found.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

const namesOf = (items: { data: Record<string, unknown> }[]) => items.map((i) => String(i.data.name)).sort();

describe('searching the words of rich text', () => {
  it('finds as many posts as the test counts with the word in their bodies, titles or tags', async () => {
    const words = ['harvest', 'lantern', 'meadow', 'orchard', 'pumpkin'];
    // A fixed sequence, so every run builds the same posts.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const posts: { name: string; body: string; tags: string[] }[] = [];
    for (let i = 0; i < 24; i++) {
      const picked = words.filter(() => next() < 0.4);
      posts.push({
        name: `Post ${i}`,
        body: `<h2>Part ${i}</h2><p>Notes <strong>${picked.join('</strong> and <em>')}</em></p>`,
        tags: next() < 0.2 ? ['Pumpkin'] : [],
      });
    }
    for (const post of posts)
      await createItem(t, manager, team.ws, 'blog-post', blogPostData({ ...post, slug: '' }));
    for (const word of words) {
      const expected = posts
        .filter((p) => p.body.includes(word) || p.tags.some((tag) => tag.toLowerCase() === word))
        .map((p) => p.name)
        .sort();
      expect(expected.length, word).toBeGreaterThan(0);
      expect(namesOf(await searchAll(word.toUpperCase(), 'blog-post')), word).toEqual(expected);
    }
  });

  it('searches the text, not the markup', async () => {
    await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Styled post',
      slug: 'styled',
      body: '<p class="x"><span>Plain</span> <a href="https://example.com/strong">words</a></p>',
    });
    await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Bridges',
      slug: 'bridges',
      body: '<p>The longest single span of the bridge</p>',
    });
    expect(namesOf(await searchAll('span'))).toEqual(['Bridges']);
    expect(await searchAll('strong')).toEqual([]);
    expect(await searchAll('example.com')).toEqual([]);
    expect(namesOf(await searchAll('plain words'))).toEqual(['Styled post']);
    // Character references read as the characters they spell.
    await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Menu',
      slug: 'menu',
      body: '<p>Fish &amp; chips</p>',
    });
    expect(namesOf(await searchAll('fish & chips'))).toEqual(['Menu']);
    expect(await searchAll('amp')).toEqual([]);
  });

  it('follows edits: a word taken out is no longer found, a word put in is', async () => {
    const post = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Changing',
      slug: 'changing',
      body: '<p>Kestrel over the dunes</p>',
    });
    expect(namesOf(await searchAll('kestrel'))).toEqual(['Changing']);
    const res = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', post.id), manager, {
      data: { name: 'Changing', slug: 'changing', body: '<p>Osprey over the dunes</p>' },
      baseVersion: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(await searchAll('kestrel')).toEqual([]);
    expect(namesOf(await searchAll('osprey'))).toEqual(['Changing']);
  });

  it('finds words in the text fields of other schemas, in the list of every schema or of one', async () => {
    await createItem(t, manager, team.ws, 'copy', { name: 'Banner', text: 'Lighthouse tours every weekend' });
    expect(namesOf(await searchAll('lighthouse'))).toEqual(['Banner']);
    expect(namesOf(await searchAll('lighthouse', 'copy'))).toEqual(['Banner']);
    expect(await searchAll('lighthouse', 'blog-post')).toEqual([]);
  });
});

describe('items stored before their words were', () => {
  it('are found by name until the job computes their words, then by their body too', async () => {
    const post = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Old timer',
      slug: 'old-timer',
      body: '<p>Zeppelin rides</p>',
    });
    // As an upgrade leaves the rows stored before the column existed.
    await t.database.db.execute(sql`update items set search_text = null where id = ${post.id}`);
    expect(namesOf(await searchAll('old timer'))).toEqual(['Old timer']);
    expect(await searchAll('zeppelin')).toEqual([]);

    // The sweep queues the job while such rows exist; the job computes them.
    await sweepDueWork({ ...ctx, log: t.app.log } as AppContext);
    const queued = rows<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'item-search-text' and state = 'created'`,
      ),
    );
    expect(queued[0].n).toBe(1);
    expect(await fillPendingSearchTexts(ctx)).toBeGreaterThanOrEqual(1);
    expect(namesOf(await searchAll('zeppelin'))).toEqual(['Old timer']);
    expect(await fillPendingSearchTexts(ctx)).toBe(0);
  });

  it('are computed again when a content-model change rewrites them, under the new model', async () => {
    const item = await createItem(t, manager, team.ws, 'copy', {
      name: 'Renamed',
      text: 'Albatross sighting',
    });
    await t.database.db.execute(sql`update items set search_text = 'stale' where id = ${item.id}`);
    const model = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}/content-model`, manager)).json();
    const applied = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/content-model/apply`, manager, {
      baseVersion: model.version,
      ops: [{ op: 'renameField', schema: 'copy', from: 'text', to: 'words' }],
    });
    expect(applied.statusCode, applied.body).toBe(200);
    // The migration of the change writes each item's words with its new data.
    await migrateWorkspaceData({ ...ctx, log: t.app.log } as AppContext, team.ws);
    expect(namesOf(await searchAll('albatross', 'copy'))).toEqual(['Renamed']);
    expect(await fillPendingSearchTexts(ctx)).toBe(0);
  });
});

describe('the search and its index', () => {
  it('reads both sides of its condition from indexes: the words, and the rows still without them', async () => {
    // The planner prefers a scan of a small table; priced out, the indexes must still serve the condition.
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rows<Record<string, string>>(
        await tx.execute(sql`explain select id from items
          where search_text ilike '%harvest%' or (search_text is null and (data->>'name' ilike '%harvest%' or data->>'title' ilike '%harvest%'))`),
      );
    });
    const text = plan.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toContain('BitmapOr');
    expect(text).toContain('items_search_idx');
    expect(text).toContain('items_search_pending_idx');
  });
});
