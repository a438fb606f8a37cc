import type { Release, ReleaseSummary } from '@shared/api/releases';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let editor: TestUser;
let team: Team;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Pre Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Previewing',
    roles: { editor: role('Editor', { canEdit: ['blog-post'], canPublish: ['blog-post'] }) },
    people: { 'Ed Editor': ['editor'] },
  });
  editor = team.members['Ed Editor'];
});
afterAll(() => t.close());

const keysUrl = `/api-keys`;
const api = (rest: string) => `/api/v1/workspaces/${team.ws}${rest}`;
async function newKey(preview: boolean) {
  const res = await call(t, 'POST', api(keysUrl), manager, {
    name: `Preview ${preview}`,
    stages: ['live'],
    preview,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { key: string }).key;
}
const read = (path: string, key: string) =>
  t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${team.ws}/live/items/blog-post${path}`,
    headers: { authorization: `Bearer ${key}` },
  });
const post = (slug: string) =>
  createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: slug, slug }));
const nameOf = (res: { json: () => { data: { name: string } } }) => res.json().data.name;

describe('release preview through the delivery API', () => {
  let previewKey: string;
  let plainKey: string;
  let ids: Record<'changed' | 'added' | 'removed' | 'kept' | 'pinned', string>;
  let release: Release;

  beforeAll(async () => {
    previewKey = await newKey(true);
    plainKey = await newKey(false);
    const [changed, added, removed, kept, pinned] = [
      await post('changed'),
      await post('added'),
      await post('removed'),
      await post('kept'),
      await post('pinned'),
    ];
    for (const item of [changed, removed, kept]) await publish(t, manager, team.ws, 'blog-post', item.id);
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      changed.id,
      blogPostData({ name: 'changed v2', slug: 'changed-v2' }),
      1,
    );
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      pinned.id,
      blogPostData({ name: 'pinned v2', slug: 'pinned' }),
      1,
    );
    ids = { changed: changed.id, added: added.id, removed: removed.id, kept: kept.id, pinned: pinned.id };
    const created = await call(t, 'POST', api('/releases'), manager, { name: 'Launch', stage: 'live' });
    const id = (created.json() as ReleaseSummary).id;
    const res = await call(t, 'POST', api(`/releases/${id}/entries`), manager, {
      entries: [
        { schema: 'blog-post', itemId: changed.id },
        { schema: 'blog-post', itemId: added.id },
        { schema: 'blog-post', itemId: removed.id, action: 'unpublish' },
        { schema: 'blog-post', itemId: pinned.id, version: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    release = res.json();
  });

  it('answers the stage as the release will make it, to a key with the preview right, uncached', async () => {
    // Warm the live answers, as a site would.
    for (let i = 0; i < 2; i++) expect(nameOf(await read(`/${ids.changed}`, previewKey))).toBe('changed');
    const q = `?release=${release.id}`;

    const changed = await read(`/${ids.changed}${q}`, previewKey);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(nameOf(changed)).toBe('changed v2');
    expect(changed.json().version).toBe(2);
    expect(changed.headers['cache-control']).toBe('private, no-store');
    expect(changed.headers['surrogate-key']).toBeUndefined();
    expect(nameOf(await read(`/${ids.added}${q}`, previewKey))).toBe('added');
    expect(nameOf(await read(`/${ids.pinned}${q}`, previewKey))).toBe('pinned');
    expect((await read(`/${ids.removed}${q}`, previewKey)).statusCode).toBe(404);
    expect(nameOf(await read(`/${ids.kept}${q}`, previewKey))).toBe('kept');

    const bySlug = await read(`/by-slug/changed-v2${q}`, previewKey);
    expect(bySlug.statusCode, bySlug.body).toBe(200);
    expect(bySlug.json()).toMatchObject({ id: ids.changed, previousSlugs: ['changed'] });
    expect((await read(`/by-slug/added${q}`, previewKey)).json().id).toBe(ids.added);

    const list = await read(`${q}&order=id&limit=100`, previewKey);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    const listed = (list.json().items as { id: string; data: { name: string } }[]).map((i) => i.data.name);
    expect(listed.sort()).toEqual(['added', 'changed v2', 'kept', 'pinned']);

    // The stage itself is as it was, for every key.
    const live = await read(`/${ids.changed}`, previewKey);
    expect(nameOf(live)).toBe('changed');
    expect(live.headers['cache-control']).toMatch(/^public/);
    expect((await read(`/${ids.added}`, plainKey)).statusCode).toBe(404);
    expect((await read(`/${ids.removed}`, plainKey)).statusCode).toBe(200);
    const liveList = (await read('?limit=100', plainKey)).json().items as { data: { name: string } }[];
    expect(liveList.map((i) => i.data.name).sort()).toEqual(['changed', 'kept', 'removed']);
  });

  it('refuses a key without the preview right, and an unknown release', async () => {
    const denied = await read(`/${ids.changed}?release=${release.id}`, plainKey);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(
      'This API key may not preview releases: a workspace manager can create a key with the preview right',
    );
    expect(denied.headers['cache-control']).toBe('no-store');
    const unknown = await read(`/${ids.changed}?release=nope`, previewKey);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Release not found');
  });

  it('gives the preview right only through managers, and lists it', async () => {
    const res = await call(t, 'POST', api(keysUrl), editor, {
      name: 'Mine',
      stages: ['live'],
      preview: true,
    });
    expect(res.statusCode).toBe(403);
    const keys = (await call(t, 'GET', api(keysUrl), manager)).json().keys as {
      name: string;
      preview: boolean;
    }[];
    expect(keys.find((k) => k.name === 'Preview true')?.preview).toBe(true);
    expect(keys.find((k) => k.name === 'Preview false')?.preview).toBe(false);
    const bad = await call(t, 'POST', api(keysUrl), manager, {
      name: 'Bad',
      stages: ['live'],
      preview: 'yes',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers the published content once the release is out', async () => {
    const out = await call(t, 'POST', api(`/releases/${release.id}/publish`), manager, {});
    expect(out.statusCode, out.body).toBe(200);
    const after = await read(`/${ids.changed}?release=${release.id}`, previewKey);
    expect(nameOf(after)).toBe('changed v2');
    expect(nameOf(await read(`/${ids.changed}`, plainKey))).toBe('changed v2');
  });
});
