import { and, eq, like, sql } from 'drizzle-orm';
import { published } from '@server/db/schema';
import type { ApiKeyRow } from '@server/api-keys/repository';
import { DeliveryCache } from '@server/delivery/cache';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, itemUrl, publish, teamWorkspace } from '../factories/items';

const SEEDED = 10_000;

let t: TestApp;
let manager: TestUser;
let ws: string;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Pat Pages' });
  ({ ws } = await teamWorkspace(t, manager, { name: 'Pages', roles: {}, people: {} }));
  key = (
    await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, { name: 'Site', stages: ['live'] })
  ).json().key;
  // Publishing ten thousand items one by one through the API would take minutes: their copies are
  // written directly, three to a publish time so ties are broken by id.
  await t.database.db.execute(sql`
    insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
    select ${ws}, 'blog-post', 'seed' || lpad(i::text, 5, '0'), 'live', 1, 1,
           jsonb_build_object('name', 'Post ' || (i % 997), 'slug', 'post-' || i), '{}'::jsonb,
           timestamptz '2026-01-01' + (i / 3) * interval '1 millisecond', ${manager.id}, 'post-' || i
    from generate_series(1, ${SEEDED}::int) as i`);
});
afterAll(() => t.close());

interface Page {
  items: { id: string; publishedAt: string; data: { name: string } }[];
  nextCursor: string | null;
}

async function page(query: string): Promise<Page> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${ws}/live/items/blog-post?${query}`,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Publishes and unpublishes the churn items, one step every other call, alternating. */
function churner(ids: string[]) {
  let step = 0;
  let calls = 0;
  return async () => {
    if (calls++ % 2) return;
    const id = ids[step % ids.length];
    const url = `${itemUrl(ws, 'blog-post', id)}/publish/live`;
    const res =
      Math.floor(step / ids.length) % 2 === 0
        ? await publish(t, manager, ws, 'blog-post', id)
        : await call(t, 'DELETE', url, manager);
    expect(res.statusCode).toBe(200);
    step++;
  };
}

async function readAll(order: string, churn: () => Promise<void>) {
  const seen: Page['items'] = [];
  let cursor: string | null = null;
  do {
    const query: string = `order=${order}&limit=100&fields=name${cursor ? `&cursor=${cursor}` : ''}`;
    // Publishes and unpublishes land between pages and while a page is read.
    const [body] = await Promise.all([page(query), churn()]);
    seen.push(...body.items.filter((item) => item.id.startsWith('seed')));
    cursor = body.nextCursor;
  } while (cursor);
  return seen;
}

describe('delivery paging', () => {
  it('returns each of 10,000 published items exactly once, in order, while others are published and unpublished', async () => {
    const churnIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const item = await createItem(t, manager, ws, 'blog-post', blogPostData({ name: `Post ${i * 100}` }));
      churnIds.push(item.id);
    }
    const newestFirst = await readAll('-publishedAt', churner(churnIds));
    const expected = Array.from({ length: SEEDED }, (_, i) => `seed${String(SEEDED - i).padStart(5, '0')}`);
    expect(newestFirst.map((item) => item.id)).toEqual(expected);

    const byName = await readAll('name', churner(churnIds));
    expect(new Set(byName.map((item) => item.id)).size).toBe(SEEDED);
    expect(byName).toHaveLength(SEEDED);
    // The database's own text order, ties by id.
    const expectedByName = await t.database.db
      .select({ id: published.id })
      .from(published)
      .where(and(eq(published.workspaceId, ws), like(published.id, 'seed%')))
      .orderBy(sql`${published.data}->>'name'`, published.id);
    expect(byName.map((item) => item.id)).toEqual(expectedByName.map((row) => row.id));
  });

  it('answers a cursor of the wrong kind, out of range or with NUL characters with 400, not a database error', async () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify([value, 'x'])).toString('base64url');
    const withId = (value: unknown, id: string) =>
      Buffer.from(JSON.stringify([value, id])).toString('base64url');
    for (const query of [
      `cursor=${cursor('yesterday')}`,
      `order=version&cursor=${cursor('1')}`,
      `order=version&cursor=${cursor(2 ** 40)}`,
      `order=name&cursor=${cursor('a\u0000b')}`,
      `order=name&cursor=${cursor({ nested: true })}`,
      `cursor=${withId('2026-01-01 00:00:00+00', 'id\u0000')}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/delivery/v1/${ws}/live/items/blog-post?${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('cursor: invalid, ask for the first page again');
    }
  });
});

describe('the delivery cache', () => {
  const id = (n: number) => `ws\tlive\tpost\t${n}`;
  const answer = (n: number) => async () => ({ body: 'x'.repeat(1_000 + n), etag: `"${n}"`, keys: ['k'] });
  /** Asks for the answer and says whether it had to be rendered. */
  async function rendersFor(cache: DeliveryCache, n: number) {
    let rendered = false;
    await cache.answer(id(n), async () => {
      rendered = true;
      return answer(n)();
    });
    return rendered;
  }

  it('keeps an answer from its second request, not its first', async () => {
    const cache = new DeliveryCache();
    expect(await rendersFor(cache, 1)).toBe(true);
    expect(cache.size).toBe(0);
    expect(await rendersFor(cache, 1)).toBe(true);
    expect(await rendersFor(cache, 1)).toBe(false);
  });

  it('keeps answers within its budget in bytes, least recently used out first', async () => {
    const cache = new DeliveryCache(100_000);
    for (let n = 0; n < 1_000; n++) {
      await cache.answer(id(n), answer(n));
      await cache.answer(id(n), answer(n));
    }
    expect(cache.size).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBeGreaterThan(80_000);
    expect(await rendersFor(cache, 999)).toBe(false);
    expect(await rendersFor(cache, 0)).toBe(true);
  });

  it('does not keep an answer rendered while a change came in', async () => {
    const cache = new DeliveryCache();
    let renders = 0;
    const render = async () => {
      renders++;
      if (renders === 2) cache.apply({ kind: 'stage', workspaceId: 'ws', stage: 'live' });
      return { body: `${renders}`, etag: `"${renders}"`, keys: [] };
    };
    const list = 'ws\tlive\tpost\tlist?';
    expect((await cache.answer(list, render)).body).toBe('1');
    // Asked for again, but a change came in while it was rendered: not kept.
    expect((await cache.answer(list, render)).body).toBe('2');
    expect((await cache.answer(list, render)).body).toBe('3');
    expect((await cache.answer(list, render)).body).toBe('3');
    cache.apply({ kind: 'stage', workspaceId: 'ws', stage: 'live' });
    expect((await cache.answer(list, render)).body).toBe('4');
  });

  it("does not keep a key read while the workspace's keys changed", async () => {
    const cache = new DeliveryCache();
    const row = { workspaceId: 'ws', id: 'k1' } as ApiKeyRow;
    let reads = 0;
    const read = async (revokeMeanwhile: boolean) => {
      reads++;
      if (revokeMeanwhile) cache.apply({ kind: 'keys', workspaceId: 'ws' });
      return row;
    };
    // Read while a revoke came in: sent, not kept, so the next request reads again.
    expect(await cache.apiKey('mq_token', () => read(true))).toBe(row);
    expect(await cache.apiKey('mq_token', () => read(false))).toBe(row);
    expect(reads).toBe(2);
    // Kept once read undisturbed; a change of the workspace's keys drops it.
    expect(await cache.apiKey('mq_token', () => read(false))).toBe(row);
    expect(reads).toBe(2);
    cache.apply({ kind: 'keys', workspaceId: 'ws' });
    expect(await cache.apiKey('mq_token', () => read(false))).toBe(row);
    expect(reads).toBe(3);
  });
});
