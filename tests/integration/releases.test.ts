import { and, eq, gt, sql } from 'drizzle-orm';
import { RELEASE_MESSAGES, type Release, type ReleaseSummary } from '@shared/api/releases';
import { auditLog, webhookDeliveries, webhooks } from '@server/db/schema';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  getItem,
  itemUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let editor: TestUser;
let publisher: TestUser;
let legal: TestUser;
let viewer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Rel Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Releasing',
    domains: ['blogging', 'marketing', 'assets'],
    roles: {
      editor: role('Editor', { canEdit: ['blog-post', 'copy'], canPublish: ['blog-post'] }),
      publisher: role('Publisher', { canPublish: ['blog-post', 'copy'] }),
      legal: role('Legal', { mustApprove: ['copy'] }),
      viewer: role('Viewer', {}),
    },
    people: {
      'Eda Editor': ['editor'],
      'Pat Publisher': ['publisher'],
      'Lee Legal': ['legal'],
      'Vic Viewer': ['viewer'],
    },
  });
  ({
    'Eda Editor': editor,
    'Pat Publisher': publisher,
    'Lee Legal': legal,
    'Vic Viewer': viewer,
  } = team.members);
  stranger = await verifiedUser(t, { name: 'Sam Stranger' });
});
afterAll(async () => {
  await t.close();
});

const releasesUrl = (rest = '') => `/api/v1/workspaces/${team.ws}/releases${rest}`;
let n = 0;
const post = (name = 'Post') => {
  n += 1;
  return createItem(
    t,
    manager,
    team.ws,
    'blog-post',
    blogPostData({ name: `${name} ${n}`, slug: `post-${n}` }),
  );
};
/** Saves a post's second version. */
const saveV2 = (id: string, name: string, slug: string) =>
  saveItem(t, manager, team.ws, 'blog-post', id, blogPostData({ name, slug }), 1);
const copy = () => createItem(t, manager, team.ws, 'copy', { name: `Copy ${++n}`, text: 'Buy now' });

async function newRelease(user = manager, body: object = {}): Promise<ReleaseSummary> {
  const res = await call(t, 'POST', releasesUrl(), user, { name: 'Launch', stage: 'live', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function addEntries(id: string, entries: object[], user = manager): Promise<Release> {
  const res = await call(t, 'POST', releasesUrl(`/${id}/entries`), user, { entries });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
/** The newest audit row's id, and the workspace's audit rows after one. */
const lastAuditId = async () =>
  Number((await t.database.db.select({ id: sql<number>`max(${auditLog.id})` }).from(auditLog))[0]?.id ?? 0);
const auditAfter = (id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.workspaceId, team.ws), gt(auditLog.id, id)));
const liveVersion = async (schema: string, id: string) =>
  (await getItem(t, manager, team.ws, schema, id)).published.live?.version ?? null;

describe('releases', () => {
  it('are created, listed, read, changed (409 when stale) and deleted', async () => {
    const created = await newRelease(manager, {
      description: 'Spring',
      publishAt: '2030-03-01T09:00:00-08:00',
      publishAtTz: 'America/Los_Angeles',
    });
    expect(created).toMatchObject({ name: 'Launch', stage: 'live', state: 'draft', entryCount: 0 });
    expect(created.publishAt).toBe('2030-03-01T17:00:00.000Z');

    const list = await call(t, 'GET', releasesUrl(), viewer);
    expect(list.statusCode).toBe(200);
    expect(list.json().releases.map((r: ReleaseSummary) => r.id)).toContain(created.id);

    const patched = await call(t, 'PATCH', releasesUrl(`/${created.id}`), manager, {
      name: 'Spring launch',
      updatedAt: created.updatedAt,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().name).toBe('Spring launch');

    const stale = await call(t, 'PATCH', releasesUrl(`/${created.id}`), manager, {
      name: 'Overwritten',
      updatedAt: created.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    const read = await call(t, 'GET', releasesUrl(`/${created.id}`), viewer);
    expect(read.json()).toMatchObject({ name: 'Spring launch', entries: [], canPublish: false });

    const badStage = await call(t, 'POST', releasesUrl(), manager, { name: 'X', stage: 'nowhere' });
    expect(badStage.statusCode).toBe(400);

    expect((await call(t, 'DELETE', releasesUrl(`/${created.id}`), manager)).statusCode).toBe(200);
    expect((await call(t, 'GET', releasesUrl(`/${created.id}`), manager)).statusCode).toBe(404);
  });

  it('adds and removes entries in bulk', async () => {
    const [a, b, c] = [await post(), await post(), await copy()];
    const release = await newRelease();
    const added = await addEntries(release.id, [
      { schema: 'blog-post', itemId: a.id },
      { schema: 'blog-post', itemId: b.id, version: 1 },
      { schema: 'copy', itemId: c.id },
    ]);
    expect(added.entryCount).toBe(3);
    expect(added.entries.find((e) => e.itemId === b.id)).toMatchObject({ version: 1, currentVersion: 1 });

    const removed = await call(t, 'DELETE', releasesUrl(`/${release.id}/entries`), manager, {
      itemIds: [a.id, c.id],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().entries.map((e: { itemId: string }) => e.itemId)).toEqual([b.id]);

    const missing = await call(t, 'POST', releasesUrl(`/${release.id}/entries`), manager, {
      entries: [{ schema: 'blog-post', itemId: 'nope' }],
    });
    expect(missing.statusCode).toBe(404);
    const future = await call(t, 'POST', releasesUrl(`/${release.id}/entries`), manager, {
      entries: [{ schema: 'blog-post', itemId: b.id, version: 7 }],
    });
    expect(future.statusCode).toBe(400);
  });

  it('lists what blocks publishing, entry by entry: approvals and rights', async () => {
    const p = await post();
    const c = await copy();
    const release = await newRelease();
    const added = await addEntries(release.id, [
      { schema: 'blog-post', itemId: p.id },
      { schema: 'copy', itemId: c.id },
    ]);
    expect(added.canChange).toBe(true);
    const asEditor: Release = (await call(t, 'GET', releasesUrl(`/${release.id}`), editor)).json();
    expect(asEditor.canChange).toBe(false);
    const copyEntry = asEditor.entries.find((e) => e.itemId === c.id)!;
    expect(copyEntry).toMatchObject({ fullyApproved: false, canPublish: false });
    expect(copyEntry.blockers).toEqual([
      'You do not have permission to publish Copies',
      'This item needs approval before publishing. Waiting for: Legal',
    ]);
    expect(asEditor.entries.find((e) => e.itemId === p.id)!.blockers).toEqual([]);
    expect(asEditor.canPublish).toBe(false);

    const refused = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), editor);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.blocked).toEqual([
      { schema: 'copy', itemId: c.id, blockers: copyEntry.blockers },
    ]);
    // The manager may publish copies, but the approval is still missing.
    expect((await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager)).statusCode).toBe(409);
    expect(await liveVersion('blog-post', p.id)).toBeNull();

    expect((await approve(t, legal, team.ws, 'copy', c.id, 'legal')).statusCode).toBe(200);
    const published = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().state).toBe('published');
    expect(await liveVersion('blog-post', p.id)).toBe(1);
    expect(await liveVersion('copy', c.id)).toBe(1);
  });

  it('publishes pinned versions as pinned and the others at their latest', async () => {
    const pinned = await post();
    const latest = await post();
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: pinned.id, version: 1 },
      { schema: 'blog-post', itemId: latest.id },
    ]);
    await saveV2(pinned.id, 'Pinned v2', 'p-v2');
    await saveV2(latest.id, 'Latest v2', 'l-v2');

    const read: Release = (await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json();
    expect(read.entries.find((e) => e.itemId === pinned.id)).toMatchObject({
      version: 1,
      currentVersion: 2,
      hasNewerVersion: true,
    });
    expect(read.entries.find((e) => e.itemId === latest.id)).toMatchObject({
      version: null,
      hasNewerVersion: false,
    });

    const res = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager);
    expect(res.statusCode, res.body).toBe(200);
    const pinnedItem = await getItem(t, manager, team.ws, 'blog-post', pinned.id);
    expect(pinnedItem.published.live?.version).toBe(1);
    expect(pinnedItem.publishStatus.live).toBe('MODIFIED');
    expect(await liveVersion('blog-post', latest.id)).toBe(2);
    const delivered = await t.database.db.execute(
      sql`select data->>'name' as name from published where workspace_id = ${team.ws} and id = ${pinned.id} and stage = 'live'`,
    );
    expect(JSON.stringify(delivered)).toContain(`Post`);
    expect(JSON.stringify(delivered)).not.toContain('Pinned v2');
  });

  it('is all or nothing: an entry whose item was deleted meanwhile leaves the stage as it was', async () => {
    // Entries go in schema order: the post is copied to the stage before the deleted copy is reached.
    const p = await post();
    const c = await copy();
    await approve(t, legal, team.ws, 'copy', c.id, 'legal');
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: p.id },
      { schema: 'copy', itemId: c.id },
    ]);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'copy', c.id), manager)).statusCode).toBe(200);
    const last = await lastAuditId();

    const res = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.details.blocked).toEqual([
      { schema: 'copy', itemId: c.id, blockers: ['This item no longer exists'] },
    ]);
    expect(await liveVersion('blog-post', p.id)).toBeNull();
    const read: Release = (await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json();
    expect(read.state).toBe('draft');
    expect(read.entries.every((e) => e.previousVersion === null)).toBe(true);
    const audit = await auditAfter(last);
    expect(audit).toEqual([]);
  });

  it('journals one audit row per entry plus one for the release, and one webhook event', async () => {
    await t.database.db.insert(webhooks).values({
      workspaceId: team.ws,
      id: 'relhook',
      url: 'https://hooks.example.test/in',
      events: ['release.published', 'item.published'],
      secret: 'sealed',
      createdBy: manager.id,
    });
    const items = [await post(), await post(), await post()];
    const release = await newRelease();
    await addEntries(
      release.id,
      items.map((i) => ({ schema: 'blog-post', itemId: i.id })),
    );
    const last = await lastAuditId();
    expect((await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager)).statusCode).toBe(200);
    const audit = await auditAfter(last);
    expect(audit.map((a) => a.action).sort()).toEqual([
      'item.published',
      'item.published',
      'item.published',
      'release.published',
    ]);
    const deliveries = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.workspaceId, team.ws), eq(webhookDeliveries.webhookId, 'relhook')));
    expect(deliveries.map((d) => d.event)).toEqual(['release.published']);
    const body = JSON.parse(deliveries[0]!.body);
    expect(body).toMatchObject({ release: release.id, stage: 'live', entries: 3 });
    expect(body.items).toEqual(
      expect.arrayContaining(
        items.map((i) => ({ id: i.id, schema: 'blog-post', action: 'publish', version: 1 })),
      ),
    );
    expect(body.items).toHaveLength(3);
    await t.database.db.delete(webhooks).where(eq(webhooks.id, 'relhook'));
  });

  it('journals a release of many items the same way, row for row', async () => {
    const items = [];
    for (let i = 0; i < 120; i++) items.push(await post('Many'));
    const release = await newRelease();
    await addEntries(
      release.id,
      items.map((i) => ({ schema: 'blog-post', itemId: i.id })),
    );
    const last = await lastAuditId();
    const res = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), editor);
    expect(res.statusCode, res.body).toBe(200);
    const audit = await auditAfter(last);
    const published = audit.filter((a) => a.action === 'item.published');
    expect(published.map((a) => a.targetId).sort()).toEqual(items.map((i) => i.id).sort());
    expect(published[0]).toMatchObject({
      userId: editor.id,
      userName: 'Eda Editor',
      targetType: 'item',
      schema: 'blog-post',
      detail: { stage: 'live', release: release.id, version: 1 },
    });
    expect(published[0]!.label).toMatch(/^Many \d+$/);
    expect(audit.filter((a) => a.action === 'release.published')).toHaveLength(1);
  });

  it('publishes the entries’ references with publishRefs, and only then', async () => {
    const cat = await createItem(t, manager, team.ws, 'marquee-assets-image-set', {
      name: 'Cat',
      altText: 'Cat',
      masterImage: await uploadImage(t, manager, team.ws, await makeImage({ seed: 3 }), 'cat.png'),
    });
    const email = await createItem(t, manager, team.ws, 'email', {
      name: 'Pets',
      subject: 'Pets',
      images: [{ id: cat.id, schemaType: cat.schema, label: 'Cat' }],
    });
    const release = await newRelease();
    await addEntries(release.id, [{ schema: 'email', itemId: email.id }]);
    const plain = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager, {});
    expect(plain.statusCode, plain.body).toBe(200);
    expect(await liveVersion('marquee-assets-image-set', cat.id)).toBeNull();
    await call(t, 'POST', releasesUrl(`/${release.id}/revert`), manager);

    const withRefs = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager, {
      publishRefs: true,
    });
    expect(withRefs.statusCode, withRefs.body).toBe(200);
    expect(await liveVersion('email', email.id)).toBe(1);
    expect(await liveVersion('marquee-assets-image-set', cat.id)).toBe(1);
  });

  it('reverts: the previous versions come back and what was new is unpublished', async () => {
    const old = await post();
    expect((await publish(t, manager, team.ws, 'blog-post', old.id)).statusCode).toBe(200);
    await saveV2(old.id, 'Old v2', 'old-v2');
    const fresh = await post();
    const gone = await post();
    expect((await publish(t, manager, team.ws, 'blog-post', gone.id)).statusCode).toBe(200);
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: old.id },
      { schema: 'blog-post', itemId: fresh.id },
      { schema: 'blog-post', itemId: gone.id, action: 'unpublish' },
    ]);
    expect((await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager)).statusCode).toBe(200);
    expect([await liveVersion('blog-post', old.id), await liveVersion('blog-post', fresh.id)]).toEqual([
      2, 1,
    ]);
    expect(await liveVersion('blog-post', gone.id)).toBeNull();
    expect(
      (
        await call(t, 'POST', releasesUrl(`/${release.id}/entries`), manager, {
          entries: [{ schema: 'blog-post', itemId: old.id }],
        })
      ).statusCode,
    ).toBe(409);

    expect((await call(t, 'DELETE', releasesUrl(`/${release.id}`), manager)).statusCode).toBe(409);

    const reverted = await call(t, 'POST', releasesUrl(`/${release.id}/revert`), manager);
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(reverted.json().state).toBe('reverted');
    expect(await liveVersion('blog-post', old.id)).toBe(1);
    expect(await liveVersion('blog-post', fresh.id)).toBeNull();
    expect(await liveVersion('blog-post', gone.id)).toBe(1);
    expect((await call(t, 'POST', releasesUrl(`/${release.id}/revert`), manager)).statusCode).toBe(409);
  });

  it('refuses to revert over what was published again since, naming it, and changes nothing', async () => {
    const [kept, redone, removed] = [await post(), await post(), await post()];
    expect((await publish(t, manager, team.ws, 'blog-post', removed.id)).statusCode).toBe(200);
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: kept.id },
      { schema: 'blog-post', itemId: redone.id },
      { schema: 'blog-post', itemId: removed.id, action: 'unpublish' },
    ]);
    expect((await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager)).statusCode).toBe(200);
    // Newer work after the release: a new version of one entry, and the unpublished one back.
    await saveV2(redone.id, 'Redone v2', 'redone-v2');
    expect((await publish(t, manager, team.ws, 'blog-post', redone.id)).statusCode).toBe(200);
    expect((await publish(t, manager, team.ws, 'blog-post', removed.id)).statusCode).toBe(200);

    const refused = await call(t, 'POST', releasesUrl(`/${release.id}/revert`), manager);
    expect(refused.statusCode).toBe(409);
    const { error } = refused.json();
    expect(error.message).toMatch(
      /^Published again since this release, so a revert would overwrite newer work: /,
    );
    expect(error.message).toContain('Redone v2');
    expect(error.details.changed.map((c: { itemId: string }) => c.itemId).sort()).toEqual(
      [redone.id, removed.id].sort(),
    );
    expect([
      await liveVersion('blog-post', kept.id),
      await liveVersion('blog-post', redone.id),
      await liveVersion('blog-post', removed.id),
    ]).toEqual([1, 2, 1]);
    expect((await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json().state).toBe('published');
  });

  it('answers bad input with a 400 naming the field, and writes nothing', async () => {
    const release = await newRelease();
    const before = (await call(t, 'GET', releasesUrl(), manager)).json().releases.length;
    const deep = `{"name":"Deep","stage":"live","description":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const bad: [string, string, unknown, RegExp][] = [
      ['POST', releasesUrl(), { name: 'Nul\u0000name', stage: 'live' }, /name/],
      ['POST', releasesUrl(), { name: 'x'.repeat(201), stage: 'live' }, /name/],
      ['POST', releasesUrl(), { name: ['Launch'], stage: 'live' }, /name/],
      ['POST', releasesUrl(), Buffer.from(deep), /./],
      ['POST', releasesUrl(), { name: 'Huge', stage: 'live', description: 'x'.repeat(3_000_000) }, /./],
      ['POST', releasesUrl(`/${release.id}/entries`), { entries: [] }, /entries/],
      ['POST', releasesUrl(`/${release.id}/entries`), { entries: [{ schema: 'blog-post' }] }, /itemId/],
      ['DELETE', releasesUrl(`/${release.id}/entries`), { itemIds: 'all' }, /itemIds/],
      ['PATCH', releasesUrl(`/${release.id}`), { name: 'No updatedAt' }, /updatedAt/],
    ];
    for (const [method, url, body, field] of bad) {
      const json = { 'content-type': 'application/json' };
      const res = await call(t, method as 'POST', url, manager, body as object, json);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).toMatch(field);
    }
    // Names that are also JavaScript's own properties are just names.
    const odd = await call(t, 'POST', releasesUrl(), manager, { name: 'constructor', stage: 'live' });
    expect(odd.statusCode).toBe(201);
    const unknownItem = await call(t, 'POST', releasesUrl(`/${release.id}/entries`), manager, {
      entries: [{ schema: 'blog-post', itemId: '__proto__' }],
    });
    expect(unknownItem.statusCode).toBeLessThan(500);
    expect((await call(t, 'GET', releasesUrl(), manager)).json().releases).toHaveLength(before + 1);
    expect((await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json().entries).toHaveLength(
      unknownItem.statusCode < 300 ? 1 : 0,
    );
  });

  it('refuses members without rights (403) and everyone outside the workspace (404)', async () => {
    const p = await post();
    const release = await newRelease();
    await addEntries(release.id, [{ schema: 'blog-post', itemId: p.id }]);
    for (const [method, path, body] of [
      ['POST', '', { name: 'X', stage: 'live' }],
      ['PATCH', `/${release.id}`, { name: 'X', updatedAt: release.updatedAt }],
      ['DELETE', `/${release.id}`, undefined],
      ['POST', `/${release.id}/entries`, { entries: [{ schema: 'blog-post', itemId: p.id }] }],
      ['DELETE', `/${release.id}/entries`, { itemIds: [p.id] }],
      ['POST', `/${release.id}/publish`, {}],
      ['POST', `/${release.id}/revert`, undefined],
    ] as const) {
      const url = releasesUrl(path);
      expect((await call(t, method, url, viewer, body)).statusCode, `${method} ${path}`).toBe(403);
      expect((await call(t, method, url, stranger, body)).statusCode, `${method} ${path}`).toBe(404);
      expect((await call(t, method, url, undefined, body)).statusCode, `${method} ${path}`).toBe(401);
    }
    expect((await call(t, 'GET', releasesUrl(`/${release.id}`), stranger)).statusCode).toBe(404);
    expect(await liveVersion('blog-post', p.id)).toBeNull();

    const other = await teamWorkspace(t, stranger, { name: 'Elsewhere', roles: {}, people: {} });
    const theirs = await call(t, 'GET', `/api/v1/workspaces/${other.ws}/releases/${release.id}`, stranger);
    expect(theirs.statusCode).toBe(404);
  });

  // A member who may publish only blog posts added copies to a manager's release and moved its stage.
  it('refuses a change of entries, stage or time to a member who may not publish all of it, writing nothing', async () => {
    const [p, c] = [await post(), await copy()];
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: p.id },
      { schema: 'copy', itemId: c.id },
    ]);
    const before: Release = (await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json();
    const [more, other] = [await post(), await copy()];
    const refusedMessage = RELEASE_MESSAGES.cannotChange('Copies');
    for (const [method, path, body] of [
      ['POST', '/entries', { entries: [{ schema: 'copy', itemId: other.id }] }],
      ['POST', '/entries', { entries: [{ schema: 'copy', itemId: other.id, action: 'unpublish' }] }],
      ['POST', '/entries', { entries: [{ schema: 'blog-post', itemId: more.id }] }],
      ['DELETE', '/entries', { itemIds: [c.id] }],
      ['PATCH', '', { stage: 'staging', updatedAt: before.updatedAt }],
      ['PATCH', '', { publishAt: '2031-01-01T00:00:00Z', updatedAt: before.updatedAt }],
    ] as const) {
      const res = await call(t, method, releasesUrl(`/${release.id}${path}`), editor, body);
      expect(res.statusCode, `${method} ${path} ${res.body}`).toBe(403);
      expect(res.json().error).toEqual({ code: 'forbidden', message: refusedMessage });
    }
    expect((await call(t, 'GET', releasesUrl(`/${release.id}`), manager)).json()).toEqual(before);

    // A release of blog posts only is theirs to change, and stays so only without copies.
    const own = await newRelease(editor);
    expect((await addEntries(own.id, [{ schema: 'blog-post', itemId: more.id }], editor)).canChange).toBe(
      true,
    );
    const copyIn = await call(t, 'POST', releasesUrl(`/${own.id}/entries`), editor, {
      entries: [{ schema: 'copy', itemId: other.id }],
    });
    expect(copyIn.statusCode).toBe(403);
    expect(copyIn.json().error.message).toBe(refusedMessage);
  });

  // The audit log named only who published a release, not who had put each entry in it.
  it('names who added each entry, in the release and in the audit of its publish', async () => {
    const [p, c] = [await post(), await copy()];
    await approve(t, legal, team.ws, 'copy', c.id, 'legal');
    const release = await newRelease(editor);
    await addEntries(release.id, [{ schema: 'blog-post', itemId: p.id }], editor);
    const last = await lastAuditId();
    const added = await addEntries(release.id, [{ schema: 'copy', itemId: c.id, version: 1 }], publisher);
    expect(added.entries.map((e) => [e.itemId, e.addedBy, e.addedByName])).toEqual(
      expect.arrayContaining([
        [p.id, editor.id, 'Eda Editor'],
        [c.id, publisher.id, 'Pat Publisher'],
      ]),
    );
    const [entriesAdded] = await auditAfter(last);
    expect(entriesAdded).toMatchObject({
      action: 'release.entries-added',
      userId: publisher.id,
      detail: { count: 1, entries: [{ schema: 'copy', itemId: c.id, action: 'publish', version: 1 }] },
    });

    const published = await call(t, 'POST', releasesUrl(`/${release.id}/publish`), manager);
    expect(published.statusCode, published.body).toBe(200);
    const items = (await auditAfter(last)).filter((a) => a.action === 'item.published');
    expect(items.map((a) => [a.targetId, a.userId, a.detail])).toEqual(
      expect.arrayContaining([
        [p.id, manager.id, expect.objectContaining({ addedBy: editor.id, addedByName: 'Eda Editor' })],
        [c.id, manager.id, expect.objectContaining({ addedBy: publisher.id, addedByName: 'Pat Publisher' })],
      ]),
    );
  });
});

describe('changes of a release the manager scheduled, by every role', () => {
  type Actor = 'manager' | 'publisher' | 'editor' | 'legal' | 'viewer' | 'stranger' | 'anonymous';
  const actors: Record<Actor, () => TestUser | undefined> = {
    manager: () => manager,
    publisher: () => publisher,
    editor: () => editor,
    legal: () => legal,
    viewer: () => viewer,
    stranger: () => stranger,
    anonymous: () => undefined,
  };
  type Kind = 'entries' | 'stage' | 'time' | 'details' | 'delete';
  /** What each may do: the publisher may publish both schemas, the editor blog posts only. */
  const expected: Record<Actor, (kind: Kind) => number> = {
    manager: () => 200,
    publisher: () => 200,
    editor: (kind) => (kind === 'details' ? 200 : 403),
    legal: () => 403,
    viewer: () => 403,
    stranger: () => 404,
    anonymous: () => 401,
  };
  interface Scheduled {
    release: Release;
    postId: string;
  }
  const url = (f: Scheduled, rest = '') => releasesUrl(`/${f.release.id}${rest}`);
  const patch = (f: Scheduled, user: TestUser | undefined, body: object) =>
    call(t, 'PATCH', url(f), user, { ...body, updatedAt: f.release.updatedAt });
  const changes: [
    string,
    Kind,
    (f: Scheduled, user: TestUser | undefined) => Promise<{ statusCode: number; body: string }>,
  ][] = [
    [
      'adds a blog post',
      'entries',
      async (f, user) =>
        call(t, 'POST', url(f, '/entries'), user, {
          entries: [{ schema: 'blog-post', itemId: (await post()).id }],
        }),
    ],
    [
      'adds a copy to publish',
      'entries',
      async (f, user) =>
        call(t, 'POST', url(f, '/entries'), user, {
          entries: [{ schema: 'copy', itemId: (await copy()).id }],
        }),
    ],
    [
      'adds a copy to unpublish',
      'entries',
      async (f, user) =>
        call(t, 'POST', url(f, '/entries'), user, {
          entries: [{ schema: 'copy', itemId: (await copy()).id, action: 'unpublish' }],
        }),
    ],
    [
      'pins an entry’s version',
      'entries',
      (f, user) =>
        call(t, 'POST', url(f, '/entries'), user, {
          entries: [{ schema: 'blog-post', itemId: f.postId, version: 1 }],
        }),
    ],
    [
      'removes an entry',
      'entries',
      (f, user) => call(t, 'DELETE', url(f, '/entries'), user, { itemIds: [f.postId] }),
    ],
    ['moves it to Staging', 'stage', (f, user) => patch(f, user, { stage: 'staging' })],
    ['sets another time', 'time', (f, user) => patch(f, user, { publishAt: '2031-06-01T09:00:00Z' })],
    ['clears its time', 'time', (f, user) => patch(f, user, { publishAt: null, publishAtTz: null })],
    ['renames it', 'details', (f, user) => patch(f, user, { name: 'Renamed', stage: 'live' })],
    // Broke: deleting took only a publish right on something, so a narrow publisher deleted it.
    ['deletes it', 'delete', (f, user) => call(t, 'DELETE', url(f), user)],
  ];
  const cases = changes.flatMap(([what, kind, send]) =>
    (Object.keys(actors) as Actor[]).map((actor) => [actor, what, kind, send] as const),
  );

  /** A release of a post and a copy, scheduled by the manager for a time to come. */
  async function scheduled(): Promise<Scheduled> {
    const [p, c] = [await post(), await copy()];
    const release = await newRelease(manager, {
      publishAt: '2031-01-01T09:00:00Z',
      publishAtTz: 'Europe/Paris',
    });
    await addEntries(release.id, [
      { schema: 'blog-post', itemId: p.id },
      { schema: 'copy', itemId: c.id },
    ]);
    return { release: await readRelease(release.id), postId: p.id };
  }
  const readRelease = async (id: string): Promise<Release> =>
    (await call(t, 'GET', releasesUrl(`/${id}`), manager)).json();

  it.each(cases)('%s %s', async (actor, _what, kind, send) => {
    const f = await scheduled();
    expect(f.release).toMatchObject({ scheduleStatus: 'pending', scheduledBy: manager.id });
    const user = actors[actor]();
    const res = await send(f, user);
    const status = expected[actor](kind);
    expect(res.statusCode, res.body).toBe(status);
    const after = await readRelease(f.release.id);
    if (status !== 200) {
      expect(after).toEqual(f.release);
      return;
    }
    if (kind === 'delete') {
      expect((await call(t, 'GET', url(f), manager)).statusCode).toBe(404);
    } else if (kind === 'time') {
      const cleared = after.publishAt === null;
      expect(after).toMatchObject(
        cleared
          ? { scheduleStatus: null, scheduledBy: null }
          : { scheduleStatus: 'pending', scheduledBy: user!.id },
      );
    } else if (kind === 'details' || user === manager) {
      expect(after).toMatchObject({
        publishAt: f.release.publishAt,
        scheduleStatus: 'pending',
        scheduledBy: manager.id,
        lastError: null,
      });
    } else {
      // Someone else changed what the manager scheduled: it waits for someone to schedule it again.
      expect(after).toMatchObject({
        scheduleStatus: 'cleared',
        scheduledBy: manager.id,
        lastError: RELEASE_MESSAGES.scheduleCleared('Pat Publisher', 'Rel Manager'),
      });
    }
  });

  it('is scheduled again, with the rights of who does it, by naming its time once cleared', async () => {
    const f = await scheduled();
    expect((await call(t, 'DELETE', url(f, '/entries'), publisher, { itemIds: [f.postId] })).statusCode).toBe(
      200,
    );
    const cleared = await readRelease(f.release.id);
    expect(cleared.scheduleStatus).toBe('cleared');
    // Saving its details as they are leaves it cleared; naming the time schedules it.
    const renamed = await call(t, 'PATCH', url(f), editor, {
      name: 'Still cleared',
      updatedAt: cleared.updatedAt,
    });
    expect(renamed.json()).toMatchObject({ scheduleStatus: 'cleared', scheduledBy: manager.id });
    const refused = await call(t, 'PATCH', url(f), editor, {
      publishAt: cleared.publishAt,
      updatedAt: renamed.json().updatedAt,
    });
    expect(refused.statusCode).toBe(403);
    const again = await call(t, 'PATCH', url(f), manager, {
      publishAt: cleared.publishAt,
      updatedAt: renamed.json().updatedAt,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      publishAt: cleared.publishAt,
      scheduleStatus: 'pending',
      scheduledBy: manager.id,
      lastError: null,
    });
  });
});
