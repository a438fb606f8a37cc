import type { Schedule } from '@shared/api/schedules';
import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startJobWorkers } from '../helpers/job-workers';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  getItem,
  itemUrl,
  itemsUrl,
  publish,
  role,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let publisher: TestUser;
let viewer: TestUser;
let workers: Awaited<ReturnType<typeof startJobWorkers>> | undefined;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Sch Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Scheduling',
    roles: {
      publisher: role('Publisher', { canEdit: ['blog-post'], canPublish: ['blog-post'] }),
      legal: role('Legal', { mustApprove: [] }),
      viewer: role('Viewer', {}),
    },
    people: { 'Pia Publisher': ['publisher'], 'Vic Viewer': ['viewer'] },
  });
  ({ 'Pia Publisher': publisher, 'Vic Viewer': viewer } = team.members);
  workers = await startJobWorkers(t);
});
afterAll(async () => {
  await workers?.close();
  await t.close();
});

const schedulesUrl = (id: string) => `${itemUrl(team.ws, 'blog-post', id)}/schedules`;
const soon = (ms = 400) => new Date(Date.now() + ms).toISOString();

async function plan(id: string, body: object, user = manager) {
  const res = await call(t, 'POST', schedulesUrl(id), user, body);
  expect(res.statusCode).toBe(201);
  return res.json() as Schedule;
}

async function scheduleOf(id: string, scheduleId: string): Promise<Schedule> {
  const list = (await call(t, 'GET', schedulesUrl(id), viewer)).json().schedules as Schedule[];
  return list.find((s) => s.id === scheduleId)!;
}

const waitForStatus = (id: string, scheduleId: string, status: Schedule['status']) =>
  vi.waitFor(async () => expect((await scheduleOf(id, scheduleId)).status).toBe(status), { timeout: 10_000 });

const post = (name: string) =>
  createItem(
    t,
    manager,
    team.ws,
    'blog-post',
    blogPostData({ name, slug: name.toLowerCase().replace(/ /g, '-') }),
  );

async function scheduledView() {
  const res = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?view=scheduled`, manager);
  expect(res.statusCode).toBe(200);
  return res.json().items.map((i: { id: string }) => i.id) as string[];
}

describe('scheduled publishing', () => {
  it('publishes at the chosen time, and shows in the Scheduled view until then', async () => {
    const item = await post('Timed');
    const schedule = await plan(item.id, { stage: 'Live', action: 'publish', at: soon(600) });
    expect(schedule).toMatchObject({
      stage: 'live',
      action: 'publish',
      status: 'pending',
      createdByName: 'Sch Manager',
    });
    expect(await scheduledView()).toContain(item.id);
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );

    await waitForStatus(item.id, schedule.id, 'done');
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).publishStatus.live).toBe('CURRENT');
    expect(await scheduledView()).not.toContain(item.id);
    expect((await scheduleOf(item.id, schedule.id)).ranAt).not.toBeNull();
  });

  it('unpublishes at the chosen time', async () => {
    const item = await post('Timed out');
    await publish(t, manager, team.ws, 'blog-post', item.id);
    const schedule = await plan(item.id, { stage: 'live', action: 'unpublish', at: soon() });
    await waitForStatus(item.id, schedule.id, 'done');
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
  });

  it('is refused at run time, with the reason, when approvals are missing or rights were withdrawn', async () => {
    // Regression: a worker process that had cached the roles from before the change published anyway.
    const needsApproval = await post('Unapproved');
    const current = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    const withLegal = { ...current.roles, legal: role('Legal', { mustApprove: ['blog-post'] }) };
    expect(
      (await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, { roles: withLegal })).statusCode,
    ).toBe(200);
    const refused = await plan(needsApproval.id, { stage: 'live', at: soon() });
    await waitForStatus(needsApproval.id, refused.id, 'refused');
    expect((await scheduleOf(needsApproval.id, refused.id)).reason).toBe(
      'This item needs approval before publishing. Waiting for: Legal',
    );
    const restored = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, {
      roles: { ...restored.roles, legal: role('Legal', {}) },
    });

    const item = await post('Withdrawn');
    const byPublisher = await plan(item.id, { stage: 'live', at: soon(800) }, publisher);
    const demoted = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${publisher.id}`, manager, {
      roles: ['viewer'],
    });
    expect(demoted.statusCode).toBe(200);
    await waitForStatus(item.id, byPublisher.id, 'refused');
    expect((await scheduleOf(item.id, byPublisher.id)).reason).toBe(
      'You do not have permission to publish Blog Posts',
    );
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
    await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}/members/${publisher.id}`, manager, {
      roles: ['publisher'],
    });
  });

  it('can be cancelled before it runs', async () => {
    const item = await post('Cancelled');
    const schedule = await plan(item.id, { stage: 'live', at: soon(60_000) });
    const cancelled = await call(t, 'DELETE', `${schedulesUrl(item.id)}/${schedule.id}`, manager);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(await scheduledView()).not.toContain(item.id);
    const again = await call(t, 'DELETE', `${schedulesUrl(item.id)}/${schedule.id}`, manager);
    expect(again.statusCode).toBe(409);
    expect((await call(t, 'DELETE', `${schedulesUrl(item.id)}/nope`, manager)).statusCode).toBe(404);
  });

  it('does not run when cancelled, though its job comes due', async () => {
    const item = await post('Cancelled in time');
    const schedule = await plan(item.id, { stage: 'live', at: soon(600) });
    expect((await call(t, 'DELETE', `${schedulesUrl(item.id)}/${schedule.id}`, manager)).statusCode).toBe(
      200,
    );
    const jobState = async () =>
      rows<{ state: string }>(
        await t.database.db.execute(
          sql`select state from pgboss.job where name = 'schedule' and data->>'id' = ${schedule.id}`,
        ),
      ).map((job) => job.state);
    await expect.poll(jobState, { timeout: 10_000 }).toEqual(['completed']);
    expect((await scheduleOf(item.id, schedule.id)).status).toBe('cancelled');
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
  });

  it('checks its input and the caller’s rights', async () => {
    const item = await post('Checked');
    const past = await call(t, 'POST', schedulesUrl(item.id), manager, {
      stage: 'live',
      at: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.message).toBe('at: Choose a time in the future');
    const badStage = await call(t, 'POST', schedulesUrl(item.id), manager, { stage: 'Moon', at: soon() });
    expect(badStage.json().error.message).toBe('stage: Stage "Moon" not found in this workspace');
    expect(
      (await call(t, 'POST', schedulesUrl(item.id), manager, { stage: 'live', at: 'tomorrow' })).statusCode,
    ).toBe(400);
    expect(
      (await call(t, 'POST', schedulesUrl('missing'), manager, { stage: 'live', at: soon() })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'POST', schedulesUrl(item.id), undefined, { stage: 'live', at: soon() })).statusCode,
    ).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Stray' });
    expect((await call(t, 'GET', schedulesUrl(item.id), stranger)).statusCode).toBe(404);
    const denied = await call(t, 'POST', schedulesUrl(item.id), viewer, { stage: 'live', at: soon() });
    expect(denied.statusCode).toBe(403);
  });

  it('runs each schedule once with two server processes taking work', async () => {
    const planned: { id: string; schedule: Schedule }[] = [];
    const at = soon(700);
    for (let i = 0; i < 6; i++) {
      const item = await post(`Once ${i}`);
      planned.push({ id: item.id, schedule: await plan(item.id, { stage: 'live', at }) });
    }
    for (const { id, schedule } of planned) await waitForStatus(id, schedule.id, 'done');
    const audit = (
      await call(t, 'GET', `/api/v1/workspaces/${team.ws}/audit?action=item.published&limit=100`, manager)
    ).json().entries as { targetId: string }[];
    for (const { id } of planned) expect(audit.filter((e) => e.targetId === id)).toHaveLength(1);
  });
});
