import { and, eq, sql } from 'drizzle-orm';
import { RELEASE_MESSAGES, type Release, type ReleaseSummary } from '@shared/api/releases';
import { auditLog } from '@server/db/schema';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startJobWorkers } from '../helpers/job-workers';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  getItem,
  role,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let publisher: TestUser;
let blogger: TestUser;
let workers: Awaited<ReturnType<typeof startJobWorkers>> | undefined;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Rs Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Release schedules',
    domains: ['blogging', 'marketing'],
    roles: {
      publisher: role('Publisher', { canEdit: ['blog-post', 'copy'], canPublish: ['blog-post', 'copy'] }),
      blogger: role('Blogger', { canEdit: ['blog-post'], canPublish: ['blog-post'] }),
      legal: role('Legal', { mustApprove: ['copy'] }),
      viewer: role('Viewer', {}),
    },
    people: { 'Pia Publisher': ['publisher'], 'Bo Blogger': ['blogger'], 'Lu Legal': ['legal'] },
  });
  ({ 'Pia Publisher': publisher, 'Bo Blogger': blogger } = team.members);
  workers = await startJobWorkers(t);
});
afterAll(async () => {
  await workers?.close();
  await t.close();
});

const releasesUrl = (rest = '') => `/api/v1/workspaces/${team.ws}/releases${rest}`;
const soon = (ms = 500) => new Date(Date.now() + ms).toISOString();
let n = 0;
const post = () => {
  n += 1;
  return createItem(
    t,
    manager,
    team.ws,
    'blog-post',
    blogPostData({ name: `Sched ${n}`, slug: `sched-${n}` }),
  );
};
const copy = () => createItem(t, manager, team.ws, 'copy', { name: `Copy ${++n}`, text: 'Soon' });

/** A release of the items, not scheduled yet. */
async function releaseOf(items: { schema: string; id: string }[], user = publisher, stage = 'live') {
  const created = await call(t, 'POST', releasesUrl(), user, { name: `R${++n}`, stage });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as ReleaseSummary).id;
  const entries = items.map((i) => ({ schema: i.schema, itemId: i.id }));
  const added = await call(t, 'POST', releasesUrl(`/${id}/entries`), user, { entries });
  expect(added.statusCode, added.body).toBe(200);
  return added.json() as Release;
}
async function schedule(
  release: { id: string; updatedAt: string },
  publishAt: string | null,
  user = publisher,
) {
  const res = await call(t, 'PATCH', releasesUrl(`/${release.id}`), user, {
    publishAt,
    publishAtTz: publishAt ? 'Europe/Paris' : null,
    updatedAt: release.updatedAt,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReleaseSummary;
}
const read = async (id: string) => (await call(t, 'GET', releasesUrl(`/${id}`), manager)).json() as Release;
const waitForSchedule = (id: string, status: ReleaseSummary['scheduleStatus']) =>
  vi.waitFor(async () => expect((await read(id)).scheduleStatus).toBe(status), { timeout: 15_000 });
const liveVersion = async (schema: string, id: string) =>
  (await getItem(t, manager, team.ws, schema, id)).published.live?.version ?? null;
/** The states of the publish jobs queued for a release. */
const jobsOf = async (id: string) =>
  rows<{ state: string }>(
    await t.database.db.execute(
      sql`select state from pgboss.job where name = 'release-publish' and data->>'id' = ${id}`,
    ),
  ).map((job) => job.state);
const releaseAudit = async (id: string) =>
  t.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.workspaceId, team.ws), eq(auditLog.targetId, id)));

describe('scheduled releases', () => {
  it('publish at their time, with the rights of who scheduled them', async () => {
    const [a, b] = [await post(), await post()];
    const release = await releaseOf([
      { schema: 'blog-post', id: a.id },
      { schema: 'blog-post', id: b.id },
    ]);
    const scheduled = await schedule(release, soon(1500));
    expect(scheduled).toMatchObject({
      scheduleStatus: 'pending',
      scheduledBy: publisher.id,
      lastError: null,
    });
    expect(await liveVersion('blog-post', a.id)).toBeNull();

    await waitForSchedule(release.id, 'done');
    const done = await read(release.id);
    expect(done).toMatchObject({ state: 'published', publishedBy: publisher.id, lastError: null });
    expect(done.ranAt).not.toBeNull();
    expect(await liveVersion('blog-post', a.id)).toBe(1);
    expect(await liveVersion('blog-post', b.id)).toBe(1);
    expect((await releaseAudit(release.id)).filter((r) => r.action === 'release.published')).toHaveLength(1);
  });

  it('are refused at run time, publishing nothing, when an entry is not approved', async () => {
    const [a, c] = [await post(), await copy()];
    const release = await releaseOf([
      { schema: 'blog-post', id: a.id },
      { schema: 'copy', id: c.id },
    ]);
    await schedule(release, soon(1500));
    await waitForSchedule(release.id, 'refused');
    const refused = await read(release.id);
    expect(refused.state).toBe('draft');
    expect(refused.lastError).toContain('This release cannot be published yet');
    expect(refused.lastError).toContain(`copy/${c.id}`);
    expect(await liveVersion('blog-post', a.id)).toBeNull();
    expect(await liveVersion('copy', c.id)).toBeNull();
  });

  it('are refused at run time when the scheduler lost the right to publish', async () => {
    const a = await post();
    const release = await releaseOf([{ schema: 'blog-post', id: a.id }]);
    await schedule(release, soon(3000));
    const demoted = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${publisher.id}`, manager, {
      roles: ['viewer'],
    });
    expect(demoted.statusCode).toBe(200);
    try {
      await waitForSchedule(release.id, 'refused');
      expect((await read(release.id)).lastError).toBe('You do not have permission to publish any item type');
      expect(await liveVersion('blog-post', a.id)).toBeNull();
    } finally {
      await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${publisher.id}`, manager, {
        roles: ['publisher'],
      });
    }
  });

  it('are scheduled again when their time changes, and not at all once it is cleared', async () => {
    const [a, b] = [await post(), await post()];
    const moved = await releaseOf([{ schema: 'blog-post', id: a.id }]);
    const later = await schedule(moved, soon(60 * 60_000));
    const earlier = await schedule(later, soon(2000));
    expect(earlier.scheduleStatus).toBe('pending');

    const cleared = await releaseOf([{ schema: 'blog-post', id: b.id }]);
    // Time enough to clear it before it comes due, on a busy machine too.
    const timed = await schedule(cleared, soon(4000));
    const none = await schedule(timed, null);
    expect(none).toMatchObject({ publishAt: null, scheduleStatus: null, scheduledBy: null });

    await waitForSchedule(moved.id, 'done');
    expect(await liveVersion('blog-post', a.id)).toBe(1);
    // The cleared release's job came due too, and did nothing.
    await expect.poll(() => jobsOf(cleared.id), { timeout: 15_000 }).toEqual(['completed']);
    expect((await read(cleared.id)).state).toBe('draft');
    expect(await liveVersion('blog-post', b.id)).toBeNull();
  });

  // A member who may publish less than the manager moved the manager's scheduled release to Live, and it ran there.
  it('are cleared by a change of their entries or stage by someone else, and do not run', async () => {
    const a = await post();
    const release = await releaseOf([{ schema: 'blog-post', id: a.id }], manager, 'staging');
    // Time enough to change it before it comes due, on a busy machine too.
    const scheduled = await schedule(release, soon(4000), manager);
    const moved = await call(t, 'PATCH', releasesUrl(`/${release.id}`), blogger, {
      stage: 'live',
      updatedAt: scheduled.updatedAt,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const cleared = {
      scheduleStatus: 'cleared',
      scheduledBy: manager.id,
      lastError: RELEASE_MESSAGES.scheduleCleared('Bo Blogger', 'Rs Manager'),
    };
    expect(moved.json()).toMatchObject(cleared);

    await expect.poll(() => jobsOf(release.id), { timeout: 15_000 }).toEqual(['completed']);
    expect(await read(release.id)).toMatchObject({ state: 'draft', stage: 'live', ...cleared });
    expect(await liveVersion('blog-post', a.id)).toBeNull();
    expect((await getItem(t, manager, team.ws, 'blog-post', a.id)).published.staging).toBeUndefined();
  });

  it('are refused at run time, publishing nothing, when the scheduler may no longer publish one of their schemas', async () => {
    const [a, c] = [await post(), await copy()];
    await approve(t, team.members['Lu Legal'], team.ws, 'copy', c.id, 'legal');
    const release = await releaseOf([
      { schema: 'blog-post', id: a.id },
      { schema: 'copy', id: c.id },
    ]);
    await schedule(release, soon(3000));
    const narrowed = await call(
      t,
      'PATCH',
      `/api/v1/workspaces/${team.ws}/members/${publisher.id}`,
      manager,
      {
        roles: ['blogger'],
      },
    );
    expect(narrowed.statusCode).toBe(200);
    try {
      await waitForSchedule(release.id, 'refused');
      const refused = await read(release.id);
      expect(refused.state).toBe('draft');
      expect(refused.lastError).toBe(
        `${RELEASE_MESSAGES.blocked}: copy/${c.id}: You do not have permission to publish Copies`,
      );
      expect(await liveVersion('blog-post', a.id)).toBeNull();
      expect(await liveVersion('copy', c.id)).toBeNull();
    } finally {
      await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${publisher.id}`, manager, {
        roles: ['publisher'],
      });
    }
  });

  it('refuse a publish time in the past', async () => {
    const res = await call(t, 'POST', releasesUrl(), publisher, {
      name: 'Late',
      stage: 'live',
      publishAt: '2020-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('publishAt: Choose a time in the future');
  });
});
