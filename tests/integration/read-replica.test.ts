import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { Item } from '@shared/api/items';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { openDatabase, type Database } from '@server/db/client';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/database';
import { startReplica, type Replica } from '../helpers/replica';
import type { TestApp } from '../helpers/test-app';
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

describe('DATABASE_READ_URL', () => {
  it('is refused without DATABASE_URL, whose replica it names', () => {
    const env = { MARQUEE_SECRET: 's', DATABASE_READ_URL: 'postgres://replica.test/marquee' };
    expect(() => loadConfig(env)).toThrow('DATABASE_READ_URL names a replica of DATABASE_URL');
    const both = loadConfig({ ...env, DATABASE_URL: 'postgres://primary.test/marquee' });
    expect(both.databaseReadUrl).toBe('postgres://replica.test/marquee');
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('delivery from a read replica (DATABASE_READ_URL)', () => {
  let replica: Replica;
  let testDatabase: TestDatabase;
  let databaseName: string;
  let replicaSql: postgres.Sql;
  let database: Database;
  /** The app under test: DATABASE_URL on the primary, DATABASE_READ_URL on the replica. */
  let t: TestApp;
  /** Another server process on the primary alone (a worker, or one started without the replica). */
  let other: TestApp;
  let manager: TestUser;
  let ws: string;
  let key: string;

  beforeAll(async () => {
    replica = await startReplica(process.env.TEST_DATABASE_URL!);
    testDatabase = await openTestDatabase();
    databaseName = new URL(testDatabase.url!).pathname.slice(1);
    await replica.waitUntilReplayed();
    replicaSql = postgres(replica.urlOf(databaseName), { max: 1, onnotice: () => {} });

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
    const config = {
      ...loadConfig({
        DATA_DIR: dataDir,
        MARQUEE_SECRET: 'test-secret',
        PUBLIC_URL: 'http://marquee.test',
        DATABASE_URL: testDatabase.url,
        DATABASE_READ_URL: replica.urlOf(databaseName),
      }),
      authRateLimit: 10_000,
      webDir: path.join(dataDir, 'no-web'),
      jobs: false,
    };
    // Opened the way main.ts does.
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      readDatabaseUrl: config.databaseReadUrl,
      maxConnections: 4,
    });
    const app = await buildApp({ config, db: database.db, readDb: database.readDb, logger: false });
    const otherApp = await buildApp({ config, db: testDatabase.db, logger: false });
    t = { app, database: testDatabase, config, dataDir, close: async () => {} };
    other = { ...t, app: otherApp };

    manager = await verifiedUser(t, { name: 'Rae Replica' });
    ({ ws } = await teamWorkspace(t, manager, { name: 'Replica', roles: {}, people: {} }));
    const created = await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, {
      name: 'Site',
      stages: ['live'],
    });
    expect(created.statusCode).toBe(201);
    key = created.json().key;
  });

  afterAll(async () => {
    if (replicaSql) await replicaSql`select pg_wal_replay_resume()`.catch(() => {});
    await t?.app.close();
    await other?.app.close();
    await database?.close();
    await replicaSql?.end();
    await testDatabase?.close();
    await replica?.stop();
    if (t) fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    if (await isPaused()) await replicaSql`select pg_wal_replay_resume()`;
  });

  const isPaused = async () => (await replicaSql`select pg_is_wal_replay_paused() as paused`)[0].paused;
  // Requested, the pause holds from the next WAL record on: nothing written after it is replayed.
  const pauseReplay = () => replicaSql`select pg_wal_replay_pause()`;
  async function resumeReplay() {
    await replicaSql`select pg_wal_replay_resume()`;
    await replica.waitUntilReplayed();
  }

  const deliver = (url: string) =>
    t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/items/blog-post${url}`,
      headers: { authorization: `Bearer ${key}` },
    });
  const versionOf = async (id: string) => (await deliver(`/${id}`)).json().version as number;
  const listed = async () =>
    ((await deliver('')).json().items as { id: string; version: number }[]).map(
      (i) => `${i.id}@${i.version}`,
    );

  async function publishedPost(name: string): Promise<Item> {
    const item = await createItem(
      t,
      manager,
      ws,
      'blog-post',
      blogPostData({ name, slug: name.toLowerCase() }),
    );
    expect((await publish(t, manager, ws, 'blog-post', item.id)).statusCode).toBe(200);
    return item;
  }

  async function publishSecondVersion(app: TestApp, item: Item) {
    const data = blogPostData({ name: item.data.name, slug: item.data.slug, excerpt: 'second' });
    await saveItem(app, manager, ws, 'blog-post', item.id, data, 1);
    expect((await publish(app, manager, ws, 'blog-post', item.id)).statusCode).toBe(200);
  }

  it('reads published copies on the replica over its own pool', async () => {
    const item = await publishedPost('Pooled');
    await replica.waitUntilReplayed();
    expect(await versionOf(item.id)).toBe(1);
    const readers = await replicaSql`
      select count(*)::int as n from pg_stat_activity
      where datname = ${databaseName} and application_name = 'marquee-read' and query like '%published%'`;
    expect(readers[0].n).toBeGreaterThan(0);
  });

  it('answers what the replica replayed, and keeps no answer it read before replaying a publish here', async () => {
    const first = await publishedPost('First');
    await replica.waitUntilReplayed();
    expect(await versionOf(first.id)).toBe(1);

    await pauseReplay();
    await publishSecondVersion(t, first);
    const fresh = await publishedPost('Fresh');
    // The primary has both; this process dropped its copies on its own publish, so it reads the replica.
    expect((await getItem(t, manager, ws, 'blog-post', first.id)).published.live.version).toBe(2);
    expect(await versionOf(first.id)).toBe(1);
    expect((await deliver(`/${fresh.id}`)).statusCode).toBe(404);
    expect(await listed()).not.toContain(`${fresh.id}@1`);

    await resumeReplay();
    expect(await versionOf(first.id)).toBe(2);
    expect(await versionOf(fresh.id)).toBe(1);
    expect(await listed()).toEqual(expect.arrayContaining([`${first.id}@2`, `${fresh.id}@1`]));
  });

  it('keeps no answer it read before the replica replayed a publish another process announced', async () => {
    const item = await publishedPost('Elsewhere');
    await replica.waitUntilReplayed();
    expect(await versionOf(item.id)).toBe(1);
    expect((await getItem(t, manager, ws, 'blog-post', item.id)).published.live.version).toBe(1);

    await pauseReplay();
    await publishSecondVersion(other, item);
    // The item cache and the delivery cache are dropped by the same notice: once this process's item
    // read shows the publish, it has heard the notice and its position.
    await vi.waitFor(
      async () =>
        expect((await getItem(t, manager, ws, 'blog-post', item.id)).published.live.version).toBe(2),
      { timeout: 15_000 },
    );
    expect(await versionOf(item.id)).toBe(1);
    expect(await versionOf(item.id)).toBe(1);

    await resumeReplay();
    expect(await versionOf(item.id)).toBe(2);
  });

  it('keeps no answer a process started meanwhile read before the replica replayed a publish', async () => {
    const item = await publishedPost('Before');
    await replica.waitUntilReplayed();
    await pauseReplay();
    await publishSecondVersion(t, item);
    // Started after the publish: it heard no notice of it, only where the primary stood when it started.
    const late = await openDatabase({
      databaseUrl: t.config.databaseUrl,
      readDatabaseUrl: t.config.databaseReadUrl,
      maxConnections: 2,
    });
    const lateApp = await buildApp({ config: t.config, db: late.db, readDb: late.readDb, logger: false });
    try {
      const lateVersion = async () =>
        (
          await lateApp.inject({
            method: 'GET',
            url: `/delivery/v1/${ws}/live/items/blog-post/${item.id}`,
            headers: { authorization: `Bearer ${key}` },
          })
        ).json().version;
      expect(await lateVersion()).toBe(1);
      await resumeReplay();
      expect(await lateVersion()).toBe(2);
    } finally {
      await lateApp.close();
      await late.close();
    }
  });
});
