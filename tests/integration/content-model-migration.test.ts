import { and, eq, lt, sql } from 'drizzle-orm';
import type { ContentModelAnswer, ModelApplied, ModelChange, PlanAnswer } from '@shared/api/content-model';
import type { ModelOp } from '@shared/model/types';
import type { AppContext } from '@server/context';
import { rows } from '@server/db/migrate';
import { items, published } from '@server/db/schema';
import { sweepDueWork } from '@server/jobs/sweep';
import { richTextReader } from '@server/sanitize/rich-text-reader';
import { migrateWorkspaceData, type MigrationOptions } from '@server/model/migrate';
import { createTestApp, startSecondServer, type TestApp } from '../helpers/test-app';
import { startJobWorkers } from '../helpers/job-workers';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  getItem,
  publish,
  saveItem,
  teamWorkspace,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Migrator' });
});
afterAll(() => t.close());

const ctxOf = () =>
  ({
    db: t.database.db,
    config: t.config,
    log: t.app.log,
    itemFieldReaders: { 'rich-text': richTextReader },
  }) as AppContext;
const migrate = (ws: string, options?: MigrationOptions) => migrateWorkspaceData(ctxOf(), ws, options);
const modelUrl = (ws: string, rest = '') => `/api/v1/workspaces/${ws}/content-model${rest}`;
const itemsUrl = (ws: string) => `/api/v1/workspaces/${ws}/items/blog-post`;

async function modelVersion(ws: string) {
  return ((await call(t, 'GET', modelUrl(ws), manager)).json() as ContentModelAnswer).version;
}

/** Applies a change set; answers the change as apply answers it (its data not migrated yet). */
async function applyOnly(ws: string, ops: ModelOp[]): Promise<ModelApplied> {
  const res = await call(t, 'POST', modelUrl(ws, '/apply'), manager, {
    baseVersion: await modelVersion(ws),
    ops,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function change(ws: string, id: string): Promise<ModelChange> {
  const res = await call(t, 'GET', modelUrl(ws, `/changes/${id}`), manager);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function behind(ws: string, table: typeof items | typeof published = items) {
  const version = await modelVersion(ws);
  const found = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(and(eq(table.workspaceId, ws), eq(table.schema, 'blog-post'), lt(table.modelVersion, version)));
  return found[0].n;
}

const readingTime = (type: 'text' | 'number') =>
  ({ key: 'readingTime', label: 'Reading time', type }) as const;

const renameAndRetype: ModelOp[] = [
  { op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' },
  { op: 'retypeField', schema: 'blog-post', key: 'readingTime', field: readingTime('number') },
];

/** A workspace of `count` posts with an author and a reading time as text ('about ten' for the last). */
async function postsWorkspace(name: string, count: number) {
  const { ws } = await teamWorkspace(t, manager, { name, roles: {}, people: {} });
  await applyOnly(ws, [{ op: 'addField', schema: 'blog-post', field: readingTime('text') }]);
  const posts = [];
  for (let i = 0; i < count; i++) {
    const data = blogPostData({
      name: `Post ${i}`,
      slug: `post-${i}`,
      author: `Author ${i}`,
      readingTime: i === count - 1 ? 'about ten' : String(i + 1),
    });
    posts.push(await createItem(t, manager, ws, 'blog-post', data));
  }
  return { ws, posts };
}

describe('the data of a model change follows in the background', () => {
  it('answers every item in the new shape while the migration runs, and resumes one stopped midway', async () => {
    const { ws, posts } = await postsWorkspace('Background', 12);
    expect((await publish(t, manager, ws, 'blog-post', posts[0].id)).statusCode).toBe(200);
    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, { name: 'Site', stages: ['live'] })
    ).json().key;

    const applied = await applyOnly(ws, renameAndRetype);
    expect(applied.change).toMatchObject({ state: 'running', progress: { total: 12, done: 0 } });
    expect(await behind(ws)).toBe(12);

    // Nothing migrated yet, and every read answers the new shape.
    const read = await getItem(t, manager, ws, 'blog-post', posts[1].id);
    expect(read.data).toMatchObject({ writer: 'Author 1', readingTime: 2 });
    expect(read.data).not.toHaveProperty('author');
    const last = await getItem(t, manager, ws, 'blog-post', posts[11].id);
    expect(last).toMatchObject({ data: { readingTime: 'about ten' }, hasErrors: true });
    const list = (await call(t, 'GET', `${itemsUrl(ws)}?limit=100`, manager)).json();
    expect(list.items).toHaveLength(12);
    for (const item of list.items) {
      expect(item.data).toHaveProperty('writer');
      expect(item.data).not.toHaveProperty('author');
    }
    const delivered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/items/blog-post/${posts[0].id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(delivered.json().data).toMatchObject({ writer: 'Author 0', readingTime: 1 });

    // A try that stops after its first batch leaves the rest for the next one.
    let batches = 0;
    expect(await migrate(ws, { batchSize: 5, shouldStop: () => batches++ >= 1 })).toBe(false);
    expect(await change(ws, applied.change!.id)).toMatchObject({
      state: 'running',
      progress: { total: 12, done: 5 },
    });
    expect(await behind(ws)).toBe(7);

    expect(await migrate(ws, { batchSize: 5 })).toBe(true);
    const done = await change(ws, applied.change!.id);
    expect(done).toMatchObject({ state: 'done', progress: { total: 12, done: 12 } });
    expect(done.transformed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: posts[11].id, failed: [expect.stringContaining('readingTime')] }),
      ]),
    );
    expect(await behind(ws)).toBe(0);
    expect(await behind(ws, published)).toBe(0);
    const [stored] = await t.database.db
      .select({ data: items.data, hasErrors: items.hasErrors })
      .from(items)
      .where(and(eq(items.workspaceId, ws), eq(items.id, posts[11].id)));
    expect(stored).toMatchObject({
      data: { writer: 'Author 11', readingTime: 'about ten' },
      hasErrors: true,
    });
    const [copy] = await t.database.db
      .select({ data: published.data })
      .from(published)
      .where(and(eq(published.workspaceId, ws), eq(published.id, posts[0].id)));
    expect(copy.data).toMatchObject({ writer: 'Author 0', readingTime: 1 });
  });

  it('filters and orders delivery lists by a renamed field under its new name while the migration runs', async () => {
    const { ws, posts } = await postsWorkspace('Renamed filters', 3);
    for (const post of posts)
      expect((await publish(t, manager, ws, 'blog-post', post.id)).statusCode).toBe(200);
    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, { name: 'Site', stages: ['live'] })
    ).json().key;
    const list = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/delivery/v1/${ws}/live/items/blog-post?${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json().items as { id: string; data: Record<string, unknown> }[]).map(
        (item) => item.data.name,
      );
    };

    await applyOnly(ws, [{ op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' }]);
    // Published after the change: this copy is stored in the new shape, the other three in the old.
    const late = await createItem(t, manager, ws, 'blog-post', {
      ...blogPostData({ name: 'Post late', slug: 'post-late' }),
      writer: 'Author 0 too',
    });
    expect((await publish(t, manager, ws, 'blog-post', late.id)).statusCode).toBe(200);
    expect(await behind(ws, published)).toBe(3);

    expect(await list('filter[writer]=Author 1')).toEqual(['Post 1']);
    expect(await list('filter[writer][gte]=Author 0&order=writer')).toEqual([
      'Post 0',
      'Post late',
      'Post 1',
      'Post 2',
    ]);
    expect(await list('order=-writer&limit=2')).toEqual(['Post 2', 'Post 1']);

    // A second rename while the first is still running: each copy is read under its version's name.
    await applyOnly(ws, [{ op: 'renameField', schema: 'blog-post', from: 'writer', to: 'byline' }]);
    expect(await list('filter[byline][in]=Author 2,Author 0 too&order=byline')).toEqual([
      'Post late',
      'Post 2',
    ]);
    expect(await migrate(ws)).toBe(true);
    expect(await behind(ws, published)).toBe(0);
    expect(await list('filter[byline][in]=Author 2,Author 0 too&order=byline')).toEqual([
      'Post late',
      'Post 2',
    ]);
  });

  it('keeps a save made while the migration runs: neither lost nor overwritten', async () => {
    const { ws, posts } = await postsWorkspace('Racing', 8);
    const applied = await applyOnly(ws, renameAndRetype);
    expect(applied.change!.state).toBe('running');

    // Saved before the migration reaches it: the form sent the new shape.
    const early = await getItem(t, manager, ws, 'blog-post', posts[2].id);
    await saveItem(t, manager, ws, 'blog-post', early.id, { ...early.data, writer: 'Early' }, early.version);

    // Saved between a batch's read and its write.
    const raced = posts[5];
    let racedSave: Promise<unknown> | undefined;
    await migrate(ws, {
      batchSize: 3,
      beforeWrite: async (ids) => {
        if (racedSave || !ids.includes(raced.id)) return;
        const read = await getItem(t, manager, ws, 'blog-post', raced.id);
        racedSave = saveItem(
          t,
          manager,
          ws,
          'blog-post',
          raced.id,
          { ...read.data, writer: 'Raced', readingTime: 60 },
          read.version,
        );
        await racedSave;
      },
    });
    expect(racedSave).toBeDefined();
    expect((await change(ws, applied.change!.id)).state).toBe('done');

    const stored = new Map(
      (
        await t.database.db
          .select({ id: items.id, data: items.data, version: items.version })
          .from(items)
          .where(eq(items.workspaceId, ws))
      ).map((row) => [row.id, row]),
    );
    expect(stored.get(early.id)).toMatchObject({ version: 2, data: { writer: 'Early', readingTime: 3 } });
    expect(stored.get(raced.id)).toMatchObject({ version: 2, data: { writer: 'Raced', readingTime: 60 } });
    expect(stored.get(posts[0].id)).toMatchObject({
      version: 1,
      data: { writer: 'Author 0', readingTime: 1 },
    });
    for (const row of stored.values()) expect(row.data).not.toHaveProperty('author');
    expect(await behind(ws)).toBe(0);
  });

  it.runIf(process.env.MARQUEE_TEST_DB === 'postgres')(
    'writes the next batch while an earlier one waits for a row a save holds',
    async () => {
      const { ws, posts } = await postsWorkspace('Overlapping', 6);
      await applyOnly(ws, renameAndRetype);
      const [first, , third, fourth] = posts.map((post) => post.id).sort();
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from items where workspace_id = ${ws} and id = ${first} for update`);
        locked();
        await released;
      });
      await lockHeld;
      const migrated = migrate(ws, { batchSize: 2 });
      const versionsOf = async (ids: string[]) =>
        (
          await t.database.db
            .select({ id: items.id, modelVersion: items.modelVersion })
            .from(items)
            .where(and(eq(items.workspaceId, ws), sql`${items.id} in (${sql.join(ids, sql`, `)})`))
        ).map((row) => row.modelVersion);
      const version = await modelVersion(ws);
      try {
        // The second batch is written while the first waits for the row held.
        await expect.poll(() => versionsOf([third, fourth])).toEqual([version, version]);
        expect(await versionsOf([first])).toEqual([version - 1]);
      } finally {
        release();
        await holder;
      }
      expect(await migrated).toBe(true);
      expect(await behind(ws)).toBe(0);
    },
  );

  it('keeps a save of data read before the change: sent with its model version, it is brought to the new model', async () => {
    const { ws, posts } = await postsWorkspace('Straddling', 2);
    const read = await getItem(t, manager, ws, 'blog-post', posts[0].id);
    expect(read.data).toMatchObject({ author: 'Author 0', readingTime: '1' });
    await applyOnly(ws, renameAndRetype);
    const url = `${itemsUrl(ws)}/${read.id}`;
    const stale = await call(t, 'PUT', url, manager, {
      data: { ...read.data, author: 'Edited' },
      baseVersion: read.version,
    });
    expect(stale.statusCode).toBe(400);
    const saved = await call(t, 'PUT', url, manager, {
      data: { ...read.data, author: 'Edited' },
      baseVersion: read.version,
      modelVersion: read.modelVersion,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      version: 2,
      modelVersion: read.modelVersion! + 1,
      data: { writer: 'Edited', readingTime: 1 },
    });
    expect(saved.json().data).not.toHaveProperty('author');
  });

  it('loses no save made by many writers while the migration runs', async () => {
    const { ws, posts } = await postsWorkspace('Crowded', 20);
    await applyOnly(ws, renameAndRetype);
    const saves = posts.map(async (post, i) => {
      const read = await getItem(t, manager, ws, 'blog-post', post.id);
      return saveItem(
        t,
        manager,
        ws,
        'blog-post',
        post.id,
        // The last post's reading time did not convert: the form asks for a number.
        { ...read.data, excerpt: `Saved ${i}`, readingTime: i + 1 },
        read.version,
      );
    });
    await Promise.all([migrate(ws, { batchSize: 2 }), ...saves]);
    await migrate(ws);
    const stored = await t.database.db
      .select({ id: items.id, data: items.data })
      .from(items)
      .where(eq(items.workspaceId, ws));
    for (const [i, post] of posts.entries()) {
      const row = stored.find((candidate) => candidate.id === post.id)!;
      expect(row.data).toMatchObject({ excerpt: `Saved ${i}`, writer: `Author ${i}` });
      expect(row.data).not.toHaveProperty('author');
    }
  });

  it('reverts a change whose migration is still running', async () => {
    const { ws, posts } = await postsWorkspace('Reverting', 4);
    const removal = await applyOnly(ws, [{ op: 'removeField', schema: 'blog-post', key: 'author' }]);
    expect((await getItem(t, manager, ws, 'blog-post', posts[0].id)).data).not.toHaveProperty('author');
    // Half the items migrated, so the kept values of those are stored and the others' are not yet.
    let batches = 0;
    await migrate(ws, { batchSize: 2, shouldStop: () => batches++ >= 1 });
    const revert = await call(t, 'POST', modelUrl(ws, `/changes/${removal.change!.id}/revert`), manager, {
      baseVersion: await modelVersion(ws),
    });
    expect(revert.statusCode).toBe(200);
    for (const [i, post] of posts.entries())
      expect((await getItem(t, manager, ws, 'blog-post', post.id)).data.author).toBe(`Author ${i}`);
    await migrate(ws);
    expect((await change(ws, removal.change!.id)).state).toBe('done');
    expect((await change(ws, revert.json().change.id)).state).toBe('done');
    const stored = await t.database.db
      .select({ id: items.id, data: items.data })
      .from(items)
      .where(eq(items.workspaceId, ws));
    for (const [i, post] of posts.entries())
      expect(stored.find((row) => row.id === post.id)!.data.author).toBe(`Author ${i}`);
  });

  it('reverts a retype from the values kept, but keeps a value saved since, converted back', async () => {
    const { ws, posts } = await postsWorkspace('Retype Revert', 3);
    for (const [i, readingTime] of ['1.0', '2.50'].entries()) {
      const read = await getItem(t, manager, ws, 'blog-post', posts[i].id);
      await saveItem(t, manager, ws, 'blog-post', posts[i].id, { ...read.data, readingTime }, read.version);
    }
    const retype = await applyOnly(ws, [renameAndRetype[1]]);
    await migrate(ws);
    const edited = await getItem(t, manager, ws, 'blog-post', posts[1].id);
    expect(edited.data.readingTime).toBe(2.5);
    await saveItem(
      t,
      manager,
      ws,
      'blog-post',
      edited.id,
      { ...edited.data, readingTime: 7 },
      edited.version,
    );
    const revert = await call(t, 'POST', modelUrl(ws, `/changes/${retype.change!.id}/revert`), manager, {
      baseVersion: await modelVersion(ws),
    });
    expect(revert.statusCode).toBe(200);
    const expected = ['1.0', '7', 'about ten'];
    for (const [i, post] of posts.entries())
      expect((await getItem(t, manager, ws, 'blog-post', post.id)).data.readingTime).toBe(expected[i]);
    await migrate(ws);
    const stored = await t.database.db
      .select({ id: items.id, data: items.data })
      .from(items)
      .where(eq(items.workspaceId, ws));
    for (const [i, post] of posts.entries())
      expect(stored.find((row) => row.id === post.id)!.data.readingTime).toBe(expected[i]);
  });

  it('runs on the job queue, and the sweep queues a running change that lost its job', async () => {
    const { ws, posts } = await postsWorkspace('Queued Migration', 3);
    const applied = await applyOnly(ws, renameAndRetype);
    // The job of the change is gone (as when it was lost): the sweep queues another.
    await t.database.db.execute(sql`delete from pgboss.job where name = 'model-migration'`);
    const workers = await startJobWorkers(t);
    try {
      await sweepDueWork(ctxOf());
      await expect
        .poll(async () => (await change(ws, applied.change!.id)).state, { timeout: 20_000 })
        .toBe('done');
    } finally {
      await workers.close();
    }
    const [row] = await t.database.db
      .select({ data: items.data })
      .from(items)
      .where(and(eq(items.workspaceId, ws), eq(items.id, posts[0].id)));
    expect(row.data).toMatchObject({ writer: 'Author 0', readingTime: 1 });
  });
});

describe('the columns of a table field', () => {
  it('follow a change like fields do: renamed and converted in every row, removed and brought back on revert', async () => {
    const { ws } = await teamWorkspace(t, manager, { name: 'Table Columns', roles: {}, people: {} });
    const text = (key: string) => ({ key, label: key, type: 'text' }) as const;
    await applyOnly(ws, [
      {
        op: 'addField',
        schema: 'blog-post',
        field: { key: 'prices', label: 'Prices', type: 'table', columns: [text('label'), text('amount')] },
      },
    ]);
    const rows = [
      { label: 'Tea', amount: '2.50' },
      { label: 'Cake', amount: '4' },
    ];
    const post = await createItem(
      t,
      manager,
      ws,
      'blog-post',
      blogPostData({ name: 'Menu', slug: 'menu', prices: rows }),
    );
    const owner = { schema: 'blog-post', table: 'prices' } as const;
    await applyOnly(ws, [
      { op: 'renameField', ...owner, from: 'label', to: 'dish' },
      {
        op: 'retypeField',
        ...owner,
        key: 'amount',
        field: { key: 'amount', label: 'Amount', type: 'number' },
      },
    ]);
    const converted = [
      { dish: 'Tea', amount: 2.5 },
      { dish: 'Cake', amount: 4 },
    ];
    expect((await getItem(t, manager, ws, 'blog-post', post.id)).data.prices).toEqual(converted);
    await migrate(ws);
    const stored = async () =>
      (
        await t.database.db
          .select({ data: items.data })
          .from(items)
          .where(and(eq(items.workspaceId, ws), eq(items.id, post.id)))
      )[0].data.prices;
    expect(await stored()).toEqual(converted);

    const removing: ModelOp = { op: 'removeField', ...owner, key: 'dish' };
    const planned = await call(t, 'POST', modelUrl(ws, '/plan'), manager, {
      baseVersion: await modelVersion(ws),
      ops: [removing],
    });
    expect((planned.json() as PlanAnswer).impacts[0]).toMatchObject({
      touched: 1,
      summary: 'Remove field "dish" from table "prices" of "blog-post"',
    });
    const removal = await applyOnly(ws, [removing]);
    await migrate(ws);
    expect(await stored()).toEqual([{ amount: 2.5 }, { amount: 4 }]);
    const revert = await call(t, 'POST', modelUrl(ws, `/changes/${removal.change!.id}/revert`), manager, {
      baseVersion: await modelVersion(ws),
    });
    expect(revert.statusCode).toBe(200);
    expect((await getItem(t, manager, ws, 'blog-post', post.id)).data.prices).toEqual(converted);
    await migrate(ws);
    expect(await stored()).toEqual(converted);
  });
});

describe('one runner at a time', () => {
  /** Runs the migration, and `second` while it holds the workspace, before its first batch is written. */
  async function whileRunning(ws: string, second: () => Promise<boolean>) {
    let answered: boolean | undefined;
    let behindMeanwhile: number | undefined;
    await migrate(ws, {
      batchSize: 2,
      beforeWrite: async () => {
        if (answered !== undefined) return;
        answered = await second();
        behindMeanwhile = await behind(ws);
      },
    });
    return { answered, behindMeanwhile };
  }

  it('turns away a second run of a workspace’s migration at once, which writes nothing', async () => {
    const { ws } = await postsWorkspace('One Runner', 5);
    const applied = await applyOnly(ws, renameAndRetype);
    expect(await whileRunning(ws, () => migrate(ws))).toEqual({ answered: true, behindMeanwhile: 5 });
    expect((await change(ws, applied.change!.id)).state).toBe('done');
    expect(await behind(ws)).toBe(0);
  });

  it.runIf(process.env.MARQUEE_TEST_DB === 'postgres')(
    'turns away a run in another server process, and lets it run once the first has let go',
    async () => {
      const { ws } = await postsWorkspace('Two Runners', 5);
      const applied = await applyOnly(ws, renameAndRetype);
      const other = await startSecondServer(t);
      try {
        const otherMigrates = () => migrateWorkspaceData({ ...ctxOf(), db: other.database.db }, ws);
        expect(await whileRunning(ws, otherMigrates)).toEqual({ answered: true, behindMeanwhile: 5 });
        expect((await change(ws, applied.change!.id)).state).toBe('done');
        const next = await applyOnly(ws, [
          { op: 'renameField', schema: 'blog-post', from: 'writer', to: 'by' },
        ]);
        expect(await otherMigrates()).toBe(true);
        expect((await change(ws, next.change!.id)).state).toBe('done');
        expect(await behind(ws)).toBe(0);
      } finally {
        await other.close();
      }
    },
  );
});

describe('the plan of making a field required', () => {
  it('counts in SQL what running it over every item counts, without writing anything', async () => {
    const { ws, posts } = await postsWorkspace('Required Plan', 6);
    await saveItem(
      t,
      manager,
      ws,
      'blog-post',
      posts[1].id,
      blogPostData({ name: 'Post 1', slug: 'post-1', author: 'A', excerpt: 'Some' }),
      1,
    );
    await saveItem(
      t,
      manager,
      ws,
      'blog-post',
      posts[4].id,
      blogPostData({ name: 'Post 4', slug: 'post-4', author: 'B', excerpt: '' }),
      1,
    );
    const op: ModelOp = { op: 'updateField', schema: 'blog-post', key: 'excerpt', patch: { required: true } };
    const plan = async () => {
      const res = await call(t, 'POST', modelUrl(ws, '/plan'), manager, {
        baseVersion: await modelVersion(ws),
        ops: [op],
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as PlanAnswer).impacts[0];
    };
    const before = rows(
      await t.database.db.execute(
        sql`select id, data, version, model_version from items where workspace_id = ${ws} order by id`,
      ),
    );
    // No migration running: counted in SQL.
    const inSql = await plan();
    expect(inSql.failing.count).toBe(5);
    expect(inSql.failing.ids).not.toContain(posts[1].id);
    expect(inSql.failing.ids).toEqual([...inSql.failing.ids].sort());
    expect(
      rows(
        await t.database.db.execute(
          sql`select id, data, version, model_version from items where workspace_id = ${ws} order by id`,
        ),
      ),
    ).toEqual(before);
    // While a migration runs, rows behind are replayed first: the same answer, counted in JavaScript.
    await applyOnly(ws, [{ op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' }]);
    expect(await behind(ws)).toBe(6);
    expect(await plan()).toEqual(inSql);
  });
});
