import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { insertFirstVersion } from '@server/items/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { statementsDuring } from '../helpers/statements';
import { testDatabaseKind } from '../helpers/database';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  itemUrl,
  itemsUrl,
  publish,
  role,
  teamWorkspace,
  type Team,
} from '../factories/items';

/**
 * Creates made at the same moment go to PostgreSQL together, one statement for many
 * (db/write-batches.ts): each must still be written whole, as its own author's, with its own journal.
 * Saves share the statement's shape, one save each: made at once, each keeps to its base version.
 */
let t: TestApp;
let manager: TestUser;
let writer: TestUser;
let team: Team;
beforeAll(async () => {
  t = await createTestApp({ webhookAllowPrivate: true });
  manager = await verifiedUser(t, { name: 'Max Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Batched creates',
    domains: ['blogging'],
    roles: { writer: role('Writer', { canEdit: ['blog-post'] }) },
    people: { 'Wanda Writer': ['writer'] },
  });
  writer = team.members['Wanda Writer'];
});
afterAll(() => t.close());

const query = async <T>(statement: ReturnType<typeof sql>) => rows<T>(await t.database.db.execute(statement));

describe('creates made at the same moment', () => {
  it('are written in fewer statements than creates, each whole: item, history, audit by its author, webhook delivery', async () => {
    const hook = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/webhooks`, manager, {
      url: 'http://127.0.0.1:9/hook',
      events: ['item.saved'],
    });
    expect(hook.statusCode).toBe(201);
    const count = 30;
    const { result, statements } = await statementsDuring(t.database.db, () =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          call(t, 'POST', itemsUrl(team.ws, 'blog-post'), i % 2 ? writer : manager, {
            data: blogPostData({ name: `Post ${i}`, slug: `post-${i}` }),
          }),
        ),
      ),
    );
    expect(result.map((res) => res.statusCode)).toEqual(Array(count).fill(201));
    const inserts = statements.filter((text) => text.includes('insert into items'));
    expect(inserts.length).toBeGreaterThan(0);
    // PGlite runs one statement at a time in this thread: the next create arrives once the last is written.
    if (testDatabaseKind() === 'postgres') expect(inserts.length).toBeLessThan(count);

    const created = result.map(
      (res) => res.json() as { id: string; version: number; data: { name: string } },
    );
    const authorOf = new Map(created.map((item, i) => [item.id, i % 2 ? writer : manager]));
    expect(new Set(created.map((item) => item.id)).size).toBe(count);
    created.forEach((item, i) => expect(item).toMatchObject({ version: 1, data: { name: `Post ${i}` } }));

    const ids = sql.join(
      created.map((item) => sql`${item.id}`),
      sql`, `,
    );
    const stored = await query<{ id: string; last_written_by: string; name: string }>(
      sql`select id, last_written_by, data->>'name' as name from items where workspace_id = ${team.ws} and id in (${ids})`,
    );
    expect(stored).toHaveLength(count);
    for (const row of stored) expect(row.last_written_by).toBe(authorOf.get(row.id)!.id);
    const history = await query<{ item_id: string; num: number; by: string }>(
      sql`select item_id, num, by from item_versions where workspace_id = ${team.ws} and item_id in (${ids})`,
    );
    expect(history).toHaveLength(count);
    for (const row of history) expect([Number(row.num), row.by]).toEqual([1, authorOf.get(row.item_id)!.id]);
    const audit = await query<{
      target_id: string;
      user_id: string;
      user_name: string;
      action: string;
      label: string;
    }>(
      sql`select target_id, user_id, user_name, action, label from audit_log where workspace_id = ${team.ws} and target_id in (${ids})`,
    );
    expect(audit).toHaveLength(count);
    for (const row of audit) {
      const author = authorOf.get(row.target_id)!;
      expect(row).toMatchObject({ user_id: author.id, user_name: author.name, action: 'item.created' });
      expect(row.label).toBe(created.find((item) => item.id === row.target_id)!.data.name);
    }
    const deliveries = await query<{ body: string }>(
      sql`select body from webhook_deliveries where workspace_id = ${team.ws} and event = 'item.saved'`,
    );
    expect(deliveries.map((row) => (JSON.parse(row.body) as { itemId: string }).itemId).sort()).toEqual(
      created.map((item) => item.id).sort(),
    );
  });

  it('write the others when one of them cannot be written', async () => {
    const patch = (name: string) => ({
      data: { name, slug: name.toLowerCase(), body: '<p>Hi</p>' },
      refs: {},
      lastWrittenBy: manager.id,
      lastWrittenAt: new Date(),
      hasErrors: false,
      variation: null,
      modelVersion: 0,
      searchText: name,
    });
    const key = (id: string, workspaceId = team.ws) => ({ workspaceId, schema: 'blog-post', id });
    const written = await Promise.allSettled([
      insertFirstVersion(t.database.db, key('batch-first'), patch('First')),
      insertFirstVersion(t.database.db, key('batch-second'), patch('Second')),
      // No such workspace: the row breaks the items' foreign key.
      insertFirstVersion(t.database.db, key('batch-orphan', 'no-such-workspace'), patch('Orphan')),
      insertFirstVersion(t.database.db, key('batch-third'), patch('Third')),
    ]);
    expect(written.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const stored = await query<{ id: string }>(
      sql`select id from items where id in ('batch-first', 'batch-second', 'batch-orphan', 'batch-third') order by id`,
    );
    expect(stored.map((row) => row.id)).toEqual(['batch-first', 'batch-second', 'batch-third']);
  });
});

describe('saves made at the same moment', () => {
  const post = (name: string) =>
    createItem(t, manager, team.ws, 'blog-post', blogPostData({ name, slug: name }));
  const save = (id: string, name: string, user: TestUser, baseVersion?: number) =>
    call(t, 'PUT', itemUrl(team.ws, 'blog-post', id), user, {
      data: blogPostData({ name, slug: name }),
      ...(baseVersion === undefined ? {} : { baseVersion }),
    });

  it('of different items are each written whole, by their authors, with their stage copies', async () => {
    const posts = await Promise.all(Array.from({ length: 12 }, (_, i) => post(`saved-${i}`)));
    expect((await publish(t, manager, team.ws, 'blog-post', posts[0].id, 'live')).statusCode).toBe(200);
    const result = await Promise.all(
      posts.map((item, i) => save(item.id, `saved-${i}-again`, i % 2 ? writer : manager, 1)),
    );
    expect(result.map((res) => res.statusCode)).toEqual(Array(posts.length).fill(200));
    const saved = result.map(
      (res) => res.json() as { version: number; data: { name: string }; published: object },
    );
    saved.forEach((item, i) =>
      expect(item).toMatchObject({ version: 2, data: { name: `saved-${i}-again` } }),
    );
    expect(Object.keys(saved[0].published)).toEqual(['live']);
    expect(saved.slice(1).map((item) => Object.keys(item.published))).toEqual(
      Array(posts.length - 1).fill([]),
    );
    const ids = sql.join(
      posts.map((item) => sql`${item.id}`),
      sql`, `,
    );
    const audit = await query<{ target_id: string; user_id: string }>(
      sql`select target_id, user_id from audit_log where workspace_id = ${team.ws} and action = 'item.saved' and target_id in (${ids})`,
    );
    expect(audit.map((row) => [row.target_id, row.user_id]).sort()).toEqual(
      posts.map((item, i) => [item.id, (i % 2 ? writer : manager).id]).sort(),
    );
    const live = await query<{ item_version: number }>(
      sql`select item_version from published where workspace_id = ${team.ws} and id = ${posts[0].id}`,
    );
    expect(live.map((row) => Number(row.item_version))).toEqual([2]);
  });

  it('of one item from the same base version: one is written, the others are stale', async () => {
    const item = await post('contested');
    const result = await Promise.all([1, 2, 3, 4].map((n) => save(item.id, `contested-${n}`, manager, 1)));
    expect(result.map((res) => res.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const history = await query<{ num: number }>(
      sql`select num from item_versions where workspace_id = ${team.ws} and item_id = ${item.id} order by num`,
    );
    expect(history.map((row) => Number(row.num))).toEqual([1, 2]);
  });

  it('of one item without a base version are all written, one version each', async () => {
    const item = await post('last-wins');
    const result = await Promise.all([1, 2, 3, 4].map((n) => save(item.id, `last-wins-${n}`, manager)));
    expect(result.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(result.map((res) => (res.json() as { version: number }).version).sort()).toEqual([2, 3, 4, 5]);
    const history = await query<{ num: number }>(
      sql`select num from item_versions where workspace_id = ${team.ws} and item_id = ${item.id} order by num`,
    );
    expect(history.map((row) => Number(row.num))).toEqual([1, 2, 3, 4, 5]);
  });
});
