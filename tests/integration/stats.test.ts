import type { Item } from '@shared/api/items';
import type { WorkspaceStats } from '@shared/api/stats';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  itemsUrl,
  itemUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { seedSend } from '../factories/campaign-sends';
import { PUBLIC_EMAIL_PATHS } from '@shared/api/campaigns';

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
let team: Team;
let otherWs: string;

const statsUrl = (ws: string) => `/api/v1/workspaces/${ws}/stats`;
const stats = async (user: TestUser, ws = team.ws): Promise<WorkspaceStats> => {
  const res = await call(t, 'GET', statsUrl(ws), user);
  if (res.statusCode !== 200) throw new Error(`stats failed: ${res.statusCode} ${res.body}`);
  return res.json();
};

/** Every item the user sees, through the list API (the item-by-item count to compare with). */
async function allItems(user: TestUser): Promise<Item[]> {
  const res = await call(t, 'GET', `${itemsUrl(team.ws)}?limit=100`, user);
  expect(res.json().nextCursor).toBeNull();
  return res.json().items;
}

const expectOk = async (res: Promise<{ statusCode: number; body: string }>) => {
  const done = await res;
  if (done.statusCode >= 300) throw new Error(`${done.statusCode} ${done.body}`);
};

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  otherWs = (await createWorkspace(t.app, outsider, 'Other Stats')).id;
  team = await teamWorkspace(t, manager, {
    name: 'Stats',
    domains: ['blogging', 'admin'],
    roles: {
      reviewer: role('Reviewer', { mustApprove: ['blog-post'] }),
      writer: role('Writer', { canEdit: ['blog-post'] }),
    },
    people: { 'Rae Reviewer': ['reviewer'], 'Wes Writer': ['writer'] },
  });
  const { ws } = team;
  const reviewer = team.members['Rae Reviewer'];
  const writer = team.members['Wes Writer'];
  const posts: Item[] = [];
  for (let i = 0; i < 5; i++) {
    posts.push(
      await createItem(t, manager, ws, 'blog-post', blogPostData({ name: `Post ${i}`, slug: `post-${i}` })),
    );
  }
  for (let i = 5; i < 7; i++) {
    posts.push(
      await createItem(t, writer, ws, 'blog-post', blogPostData({ name: `Post ${i}`, slug: `post-${i}` })),
    );
  }
  const tasks: Item[] = [];
  for (let i = 0; i < 3; i++)
    tasks.push(await createItem(t, manager, ws, 'client-task', { name: `Task ${i}` }));
  for (const post of posts.slice(0, 4))
    await expectOk(approve(t, reviewer, ws, 'blog-post', post.id, 'reviewer'));
  for (const post of posts.slice(0, 3)) await expectOk(publish(t, manager, ws, 'blog-post', post.id));
  await saveItem(
    t,
    manager,
    ws,
    'blog-post',
    posts[0].id,
    blogPostData({ name: 'Post 0 changed', slug: 'post-0' }),
    1,
  );
  await expectOk(publish(t, manager, ws, 'client-task', tasks[0].id));
  await expectOk(publish(t, manager, ws, 'client-task', tasks[1].id));
  await expectOk(publish(t, manager, ws, 'client-task', tasks[1].id, 'staging'));
});
afterAll(() => t.close());

describe('GET /api/v1/workspaces/{ws}/stats', () => {
  it('matches counts made item by item from the list', async () => {
    const items = await allItems(manager);
    const got = await stats(manager);
    const bySchema = (schema: string) => items.filter((i) => i.schema === schema).length;
    expect(got.itemsBySchema).toEqual([
      { schema: 'blog-post', count: bySchema('blog-post') },
      { schema: 'client-task', count: bySchema('client-task') },
      { schema: 'service', count: 0 },
      { schema: 'test-collection', count: 0 },
    ]);
    expect(bySchema('blog-post')).toBe(7);
    for (const stage of got.publishStatus) {
      const count = (status: string) => items.filter((i) => i.publishStatus[stage.stage] === status).length;
      expect(stage).toEqual({
        stage: stage.stage,
        label: stage.label,
        current: count('CURRENT'),
        modified: count('MODIFIED'),
        notPublished: count('NOT_PUBLISHED'),
      });
    }
    expect(got.publishStatus.map((s) => [s.stage, s.current, s.modified])).toEqual([
      ['live', 4, 1],
      ['staging', 1, 0],
    ]);
    const awaiting = items.filter((i) => i.remainingApprovals.includes('reviewer')).length;
    expect(got.approvals).toEqual({
      waitingOnMe: 0,
      byRole: [{ roleId: 'reviewer', label: 'Reviewer', count: awaiting }],
    });
    expect(awaiting).toBe(4); // three never approved, one changed after its approval
    const published = items.reduce((n, i) => n + Object.keys(i.published).length, 0);
    expect(got.publishing).toHaveLength(30);
    expect(got.publishing.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), count: published });
    expect(got.publishing.slice(0, -1).every((d) => d.count === 0)).toBe(true);
    const versions = items.reduce((n, i) => n + i.version, 0);
    expect(got.changesByMember).toEqual([
      { userId: manager.id, name: 'Mia Manager', count: versions - 2 },
      { userId: team.members['Wes Writer'].id, name: 'Wes Writer', count: 2 },
    ]);
  });

  it("counts what is waiting on the caller's roles, over the schemas the caller sees", async () => {
    const reviewer = team.members['Rae Reviewer'];
    const got = await stats(reviewer);
    expect(got.itemsBySchema).toEqual([{ schema: 'blog-post', count: 7 }]); // admin domain is for managers
    expect(got.approvals.waitingOnMe).toBe(4);
    expect(got.publishStatus[0]).toMatchObject({ stage: 'live', current: 2, modified: 1, notPublished: 4 });
  });

  it('changes after a publish', async () => {
    const before = await stats(manager);
    const items = await allItems(manager);
    const task = items.find((i) => i.schema === 'client-task' && i.publishStatus.live === 'NOT_PUBLISHED')!;
    await expectOk(publish(t, manager, team.ws, 'client-task', task.id));
    const after = await stats(manager);
    expect(after.publishStatus[0].current).toBe(before.publishStatus[0].current + 1);
    expect(after.publishStatus[0].notPublished).toBe(before.publishStatus[0].notPublished - 1);
  });

  it('answers 401 signed out and 404 outside the workspace', async () => {
    expect((await call(t, 'GET', statsUrl(team.ws))).statusCode).toBe(401);
    expect((await call(t, 'GET', statsUrl(team.ws), outsider)).statusCode).toBe(404);
    expect((await call(t, 'GET', statsUrl(otherWs), manager)).statusCode).toBe(404);
    expect((await call(t, 'GET', statsUrl('no-such-ws'), manager)).statusCode).toBe(404);
  });
});

describe('changes Marquee made by itself', () => {
  it('names Marquee as their writer, on the dashboard, in the list and in the change log', async () => {
    // The dashboard said 'UNKNOWN USER' for the email events Marquee creates when a send is opened.
    const ws = (await createWorkspace(t.app, manager, 'Marquee Writes')).id;
    await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
    const send = await seedSend(t, ws, { recipients: [{ profileId: 'p1', email: 'p1@example.test' }] });
    const opened = await t.app.inject({ method: 'GET', url: PUBLIC_EMAIL_PATHS.open(send.token('o', 1)) });
    expect(opened.statusCode).toBe(200);

    const got = await stats(manager, ws);
    expect(got.changesByMember).toContainEqual({ userId: 'marquee', name: 'Marquee', count: 5 });
    const events = (await call(t, 'GET', `${itemsUrl(ws, 'behavioral-event')}?limit=100`, manager)).json();
    const written = (events.items as Item[]).filter((item) => item.lastWrittenBy === 'marquee');
    expect(written.map((item) => item.lastWrittenByName)).toEqual(Array(5).fill('Marquee'));
    const history = await call(
      t,
      'GET',
      `${itemUrl(ws, 'behavioral-event', written[0].id)}/history`,
      manager,
    );
    expect(history.json().versions).toEqual([expect.objectContaining({ by: 'marquee', byName: 'Marquee' })]);
  });
});
