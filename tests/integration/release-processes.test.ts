// Scheduled releases across processes: two real server processes on one PostgreSQL database, both
// working the job queue, run each release scheduled for the same moment exactly once.
import type { ReleaseSummary } from '@shared/api/releases';
import { blogPostData } from '../factories/items';
import { testDatabaseKind } from '../helpers/database';
import {
  callProcess,
  createProcessDatabase,
  eventually,
  processUser,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../helpers/server-process';

const RELEASES = 6;
const ITEMS_PER_RELEASE = 3;

describe.runIf(testDatabaseKind() === 'postgres')('scheduled releases with two server processes', () => {
  let database: Awaited<ReturnType<typeof createProcessDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await createProcessDatabase();
    const env = { JOBS_POLL_MS: '500' };
    // One after the other: the first migrates the new database.
    a = await startServerProcess(database.url, env);
    b = await startServerProcess(database.url, env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a && stopServerProcess(a), b && stopServerProcess(b)]);
    await database?.drop();
  }, 60_000);

  it('publishes each release once at its time', async () => {
    const manager = await processUser(a, 'Rita');
    const ws = (await callProcess(a, 'POST', '/workspaces', manager.token, { name: 'Launches' })).body
      .id as string;
    const api = async (server: ServerProcess, method: string, rest: string, body?: object) => {
      const res = await callProcess(server, method, `/workspaces/${ws}/${rest}`, manager.token, body);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body as Record<string, unknown>;
    };
    const domains = { basics: { domains: ['blogging'] } };
    expect((await callProcess(a, 'PATCH', `/workspaces/${ws}`, manager.token, domains)).status).toBe(200);

    const releases: ReleaseSummary[] = [];
    const items: string[] = [];
    for (let r = 0; r < RELEASES; r++) {
      const release = (await api(a, 'POST', 'releases', { name: `Launch ${r}`, stage: 'live' })) as never;
      const entries = [];
      for (let i = 0; i < ITEMS_PER_RELEASE; i++) {
        const slug = `launch-${r}-${i}`;
        const item = await api(a, 'POST', 'items/blog-post', { data: blogPostData({ name: slug, slug }) });
        items.push(item.id as string);
        entries.push({ schema: 'blog-post', itemId: item.id });
      }
      releases.push(
        (await api(a, 'POST', `releases/${(release as ReleaseSummary).id}/entries`, { entries })) as never,
      );
    }
    // The same moment for all, set half through one process and half through the other.
    const at = new Date(Date.now() + 2000).toISOString();
    for (const [i, release] of releases.entries()) {
      const scheduled = await api(i % 2 ? b : a, 'PATCH', `releases/${release.id}`, {
        publishAt: at,
        updatedAt: release.updatedAt,
      });
      expect(scheduled.scheduleStatus).toBe('pending');
    }

    for (const release of releases) {
      await eventually(`release ${release.name} to run`, async () => {
        const read = (await api(b, 'GET', `releases/${release.id}`)) as unknown as ReleaseSummary;
        return read.scheduleStatus === 'done' && read.state === 'published' ? true : undefined;
      });
    }
    const audit = async (action: string) =>
      ((await api(a, 'GET', `audit?action=${action}&limit=100`)).entries as { targetId: string }[]).map(
        (e) => e.targetId,
      );
    const published = await audit('release.published');
    for (const release of releases) expect(published.filter((id) => id === release.id)).toHaveLength(1);
    const itemsPublished = await audit('item.published');
    for (const id of items) expect(itemsPublished.filter((target) => target === id)).toHaveLength(1);
  }, 120_000);
});
