import type { Item } from '@shared/api/items';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { patchWorkspace } from '../factories/workspaces';
import {
  blogPostData,
  call,
  createItem,
  getItem,
  itemsUrl,
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
let french: TestUser;

const LOCALES = {
  tags: ['en-US', 'fr-FR', 'fr-CA'],
  default: 'en-US',
  fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'en-US' },
};

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Lou Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Locales',
    locales: LOCALES,
    roles: {
      french: role('French editor', { canEdit: ['blog-post'], locales: ['fr-FR', 'fr-CA'] }),
    },
    people: { 'Fran French': ['french'] },
  });
  french = team.members['Fran French'];
});
afterAll(() => t.close());

const setLocales = (locales: object, extra: object = {}, ws = team.ws) =>
  patchWorkspace(t.app, manager, ws, { basics: { locales }, ...extra });

const errorOf = (res: { json: () => unknown }) => (res.json() as { error: { message: string } }).error;

describe('workspace locales', () => {
  it('are kept in basics with the default and fallback chains', async () => {
    const ws = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    expect(ws.basics.locales).toEqual(LOCALES);
  });

  it('refuse an unknown tag, a default not listed, a fallback to an unlisted locale and a cycle, with a 400 naming it', async () => {
    const cases: [object, string][] = [
      [{ ...LOCALES, tags: ['en-US', 'xx-YY'] }, 'Unknown locale "xx-YY": use a BCP 47 tag such as fr-FR'],
      [{ ...LOCALES, tags: ['en-US', 'en-us'] }, 'Unknown locale "en-us"'],
      [{ ...LOCALES, default: 'de-DE' }, "The default locale de-DE must be one of the workspace's locales"],
      [{ ...LOCALES, fallback: { 'fr-FR': 'de-DE' } }, 'fr-FR cannot fall back to de-DE'],
      [{ ...LOCALES, fallback: { 'fr-FR': 'fr-FR' } }, 'fr-FR cannot fall back to itself'],
      [
        { ...LOCALES, fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'fr-CA' } },
        'Fallback chain fr-CA → fr-FR → fr-CA is a cycle',
      ],
      [
        { ...LOCALES, fields: { 'blog-post': { tags: { requiredIn: [] } } } },
        'Tags (tags) cannot be localised: only text, rich-text, name-slug, image, reference and blocks fields can',
      ],
      [
        { ...LOCALES, fields: { 'blog-post': { nope: { requiredIn: [] } } } },
        'Schema "blog-post" has no field "nope"',
      ],
    ];
    for (const [locales, message] of cases) {
      const res = await setLocales(locales);
      expect(res.statusCode, JSON.stringify(locales)).toBe(400);
      expect(errorOf(res).message).toContain(message);
    }
    const ws = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    expect(ws.basics.locales).toEqual(LOCALES);
  });

  it('are added to a workspace with content; removing one needs confirmation and keeps its values in history', async () => {
    const other = await teamWorkspace(t, manager, { name: 'Later locales', roles: {}, people: {} });
    const post = await createItem(t, manager, other.ws, 'blog-post', blogPostData({ name: 'Before' }));
    const added = await setLocales(
      { tags: ['en-US', 'de-DE'], default: 'en-US', fallback: {} },
      {},
      other.ws,
    );
    expect(added.statusCode, added.body).toBe(200);
    expect((await getItem(t, manager, other.ws, 'blog-post', post.id)).data.name).toBe('Before');
    const saved = await saveItem(t, manager, other.ws, 'blog-post', post.id, {
      ...blogPostData({ name: 'Before' }),
      _locales: { 'de-DE': { name: 'Vorher' } },
    });
    expect(saved.data._locales).toEqual({ 'de-DE': { name: 'Vorher', slug: 'vorher' } });

    const unconfirmed = await setLocales({ tags: ['en-US'], default: 'en-US', fallback: {} }, {}, other.ws);
    expect(unconfirmed.statusCode).toBe(400);
    expect(errorOf(unconfirmed).message).toBe(
      'Removing de-DE needs confirmation: send confirmRemoveLocales with it',
    );
    const changedDefault = await setLocales(
      { tags: ['en-US', 'de-DE'], default: 'de-DE', fallback: {} },
      {},
      other.ws,
    );
    expect(changedDefault.statusCode).toBe(400);
    expect(errorOf(changedDefault).message).toContain(
      'The default locale cannot change while the workspace has content',
    );

    const removed = await setLocales(
      { tags: ['en-US'], default: 'en-US', fallback: {} },
      { confirmRemoveLocales: ['de-DE'] },
      other.ws,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    // The stored version keeps the values; the next save drops them; the history keeps them.
    expect((await getItem(t, manager, other.ws, 'blog-post', post.id)).data._locales).toEqual({
      'de-DE': { name: 'Vorher', slug: 'vorher' },
    });
    const next = await saveItem(t, manager, other.ws, 'blog-post', post.id, saved.data, saved.version);
    expect(next.data._locales).toEqual({});
    const version2 = await call(t, 'GET', `${itemUrl(other.ws, 'blog-post', post.id)}/history/2`, manager);
    expect(version2.json().data._locales).toEqual({ 'de-DE': { name: 'Vorher', slug: 'vorher' } });
  });
});

describe('localised items', () => {
  it('hold one value per locale for localised fields; other fields are shared; slugs per locale', async () => {
    const post = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({
        name: 'Hello',
        author: 'Ann',
        _locales: { 'fr-FR': { name: 'Bonjour le monde', body: '<p>Salut</p><script>x()</script>' } },
      }),
    );
    expect(post.data).toMatchObject({ name: 'Hello', slug: 'hello-world', author: 'Ann' });
    expect(post.data._locales).toEqual({
      'fr-FR': { name: 'Bonjour le monde', slug: 'bonjour-le-monde', body: '<p>Salut</p>' },
    });
  });

  it('refuse a value per locale for a shared field, and any locale the workspace does not have is dropped', async () => {
    const res = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), manager, {
      data: blogPostData({ _locales: { 'fr-FR': { author: 'Jean' } } }),
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toContain('Unknown field "author" in locale values');
    const dropped = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ _locales: { 'de-DE': { name: 'Hallo' } } }),
    );
    expect(dropped.data._locales).toEqual({});
  });

  it('are refused in a workspace without locales, as any unknown field is', async () => {
    const plain = await teamWorkspace(t, manager, { name: 'No locales', roles: {}, people: {} });
    const res = await call(t, 'POST', itemsUrl(plain.ws, 'blog-post'), manager, {
      data: blogPostData({ _locales: { 'fr-FR': { name: 'Bonjour' } } }),
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toContain('Unknown field "_locales"');
  });

  it('validate per locale: required in the default locale, in others only where the schema says so', async () => {
    const missingDefault = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), manager, {
      data: blogPostData({ name: '', slug: '', _locales: { 'fr-FR': { name: 'Bonjour' } } }),
    });
    expect(missingDefault.statusCode).toBe(400);
    expect(missingDefault.json().error.details.errors).toMatchObject({ name: 'Title (en-US) is required' });

    // fr-FR has no title: fine until the workspace says titles are required in fr-FR.
    const post = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Only English' }));
    const required = await setLocales({
      ...LOCALES,
      fields: {
        'blog-post': { name: { requiredIn: ['fr-FR'] }, slug: { requiredIn: [] }, body: { requiredIn: [] } },
      },
    });
    expect(required.statusCode, required.body).toBe(200);
    const res = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', post.id), manager, {
      data: blogPostData({ name: 'Only English' }),
      baseVersion: post.version,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual({ '_locales.fr-FR.name': 'Title (fr-FR) is required' });
    const ok = await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      post.id,
      blogPostData({ name: 'Only English', _locales: { 'fr-FR': { name: 'Seulement' } } }),
      post.version,
    );
    expect(ok.version).toBe(2);
    expect((await setLocales(LOCALES)).statusCode).toBe(200);
  });
});

describe("the list's missing filter", () => {
  it('lists the items with a localised value set in the default locale but not in the locale asked for', async () => {
    const done = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({
        name: 'Translated',
        slug: 'translated',
        body: '<p>Done</p>',
        _locales: { 'fr-FR': { name: 'Traduit', slug: 'traduit', body: '<p>Fait</p>' } },
      }),
    );
    const todo = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Half', _locales: { 'fr-FR': { name: 'Moitié' } } }),
    );
    const ids = async (query: string) => {
      const res = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?limit=100&${query}`, manager);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as { id: string }[]).map((item) => item.id);
    };
    const missingFr = await ids('missing=fr-FR');
    expect(missingFr).toContain(todo.id);
    expect(missingFr).not.toContain(done.id);
    expect(await ids('missing=fr-CA')).toEqual(expect.arrayContaining([todo.id, done.id]));
    const bad = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?missing=en-US`, manager);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toBe('missing: choose one of fr-FR, fr-CA');
  });
});

describe('locale-limited roles', () => {
  let post: Item;
  beforeAll(async () => {
    post = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Limited', author: 'Ann', _locales: { 'fr-FR': { name: 'Limité' } } }),
    );
  });

  it('show in the permissions', async () => {
    const ws = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, french)).json();
    expect(ws.__permissions.editLocales).toEqual({ 'blog-post': ['fr-CA', 'fr-FR'] });
    const mine = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    expect(mine.__permissions.editLocales).toBeUndefined();
  });

  it('edit their locales', async () => {
    const saved = await saveItem(
      t,
      french,
      team.ws,
      'blog-post',
      post.id,
      { ...post.data, _locales: { 'fr-FR': { name: 'Limité encore' }, 'fr-CA': { name: 'Limité icitte' } } },
      post.version,
    );
    expect(saved.data._locales).toMatchObject({ 'fr-CA': { name: 'Limité icitte' } });
    post = saved;
  });

  it('are refused the default locale, shared fields and new items server-side, with a 403 naming the locale', async () => {
    const english = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', post.id), french, {
      data: { ...post.data, name: 'Changed' },
      baseVersion: post.version,
    });
    expect(english.statusCode).toBe(403);
    expect(errorOf(english).message).toBe('You do not have permission to edit en-US values of Blog Posts');
    const shared = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', post.id), french, {
      data: { ...post.data, author: 'Jean' },
      baseVersion: post.version,
    });
    expect(shared.statusCode).toBe(403);
    expect(errorOf(shared).message).toBe(
      'You do not have permission to edit fields shared by every locale of Blog Posts',
    );
    const created = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), french, { data: blogPostData() });
    expect(created.statusCode).toBe(403);
    expect((await getItem(t, manager, team.ws, 'blog-post', post.id)).version).toBe(post.version);
  });

  // A French-only editor deleted a whole published post, taking it off Live.
  it('are refused deleting a whole item, published or not, and are not offered it', async () => {
    const draft = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Draft' }));
    const published = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Out' }));
    expect((await publish(t, manager, team.ws, 'blog-post', published.id, 'staging')).statusCode).toBe(200);
    const message =
      "You do not have permission to delete Blog Posts: deleting one removes every locale's values, and you may edit only fr-CA, fr-FR";
    for (const id of [published.id, draft.id]) {
      expect((await getItem(t, french, team.ws, 'blog-post', id)).abilities.canDelete).toBe(false);
      const res = await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', id), french);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res)).toEqual({ code: 'forbidden', message });
    }
    const kept = await getItem(t, manager, team.ws, 'blog-post', published.id);
    expect(kept.publishStatus.staging).toBe('CURRENT');
    expect(kept.abilities.canDelete).toBe(true);
    expect((await getItem(t, manager, team.ws, 'blog-post', draft.id)).version).toBe(1);
  });
});

describe('history per locale', () => {
  it('keeps every locale in each version', async () => {
    const post = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'One', _locales: { 'fr-FR': { name: 'Un' } } }),
    );
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      post.id,
      { ...post.data, _locales: { 'fr-FR': { name: 'Deux' } } },
      post.version,
    );
    const version = (num: number) =>
      call(t, 'GET', `${itemUrl(team.ws, 'blog-post', post.id)}/history/${num}`, manager).then((r) =>
        r.json(),
      );
    expect((await version(1)).data).toMatchObject({ name: 'One', _locales: { 'fr-FR': { name: 'Un' } } });
    expect((await version(2)).data).toMatchObject({ name: 'One', _locales: { 'fr-FR': { name: 'Deux' } } });
  });

  it('says which locales each version changed, and whether shared fields did', async () => {
    const post = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'One', author: 'Ann' }),
    );
    const saves = [
      { ...post.data, _locales: { 'fr-FR': { name: 'Un' } } },
      { ...post.data, name: 'Two', _locales: { 'fr-FR': { name: 'Un' } } },
      { ...post.data, name: 'Two', author: 'Someone else', _locales: { 'fr-FR': { name: 'Un' } } },
    ];
    let version = post.version;
    for (const data of saves)
      version = (await saveItem(t, manager, team.ws, 'blog-post', post.id, data, version)).version;
    const res = await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', post.id)}/history`, manager);
    expect(res.statusCode, res.body).toBe(200);
    const changes = (res.json().versions as { thisVersion: number; changes: unknown }[]).map((v) => [
      v.thisVersion,
      v.changes,
    ]);
    expect(changes).toEqual([
      [4, { locales: [], shared: true }],
      // fr-FR falls back to en-US, whose name changed: only en-US changed.
      [3, { locales: ['en-US'], shared: false }],
      [2, { locales: ['fr-FR'], shared: false }],
      [1, { locales: ['en-US'], shared: true }],
    ]);
  });

  it('leaves the changes out where the workspace has no locales', async () => {
    const plain = await teamWorkspace(t, manager, { name: 'No locales', roles: {}, people: {} });
    const post = await createItem(t, manager, plain.ws, 'blog-post', blogPostData({ name: 'One' }));
    const res = await call(t, 'GET', `${itemUrl(plain.ws, 'blog-post', post.id)}/history`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().versions[0]).not.toHaveProperty('changes');
  });
});

describe('delivery with locales', () => {
  let key: string;
  let post: Item;
  const read = (path: string) =>
    t.app.inject({
      url: `/delivery/v1/${team.ws}/live/items/blog-post${path}`,
      headers: { authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    const created = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/api-keys`, manager, {
      name: 'Site',
      stages: ['live'],
    });
    key = created.json().key;
    post = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({
        name: 'Good morning',
        slug: 'good-morning',
        body: '<p>Morning</p>',
        author: 'Ann',
        _locales: { 'fr-FR': { name: 'Bonjour', slug: 'bonjour' }, 'fr-CA': { slug: 'bon-matin' } },
      }),
    );
    expect((await publish(t, manager, team.ws, 'blog-post', post.id)).statusCode).toBe(200);
  });

  it('answers each localised field in the locale or the first of its chain with a value, naming where it fell back', async () => {
    const res = await read(`/${post.id}?locale=fr-CA`);
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json();
    expect(item.locale).toBe('fr-CA');
    expect(item.data).toMatchObject({
      name: 'Bonjour',
      slug: 'bon-matin',
      body: '<p>Morning</p>',
      author: 'Ann',
    });
    expect(item.data._locales).toBeUndefined();
    expect(item._locale).toEqual({ name: 'fr-FR', body: 'en-US' });
  });

  it('answers only what the locale has with fallback=false, and every locale with *', async () => {
    const own = (await read(`/${post.id}?locale=fr-CA&fallback=false`)).json();
    expect(own.data).toEqual({ slug: 'bon-matin', author: 'Ann' });
    expect(own._locale).toBeUndefined();
    const all = (await read(`/${post.id}?locale=*`)).json();
    expect(all.data.name).toEqual({ 'en-US': 'Good morning', 'fr-FR': 'Bonjour' });
    expect(all.data.slug).toEqual({ 'en-US': 'good-morning', 'fr-FR': 'bonjour', 'fr-CA': 'bon-matin' });
    expect(all.data.author).toBe('Ann');
  });

  it('answers lists in the locale too, and a request without locale as ever', async () => {
    const list = (await read(`?locale=fr-FR`)).json();
    expect(list.items.find((i: { id: string }) => i.id === post.id).data.name).toBe('Bonjour');
    const plain = (await read(`/${post.id}`)).json();
    expect(plain.locale).toBeUndefined();
    expect(plain.data.name).toBe('Good morning');
    expect(plain.data._locales['fr-FR'].name).toBe('Bonjour');
  });

  it('finds slugs per locale', async () => {
    const french = await read(`/by-slug/bonjour?locale=fr-FR`);
    expect(french.statusCode, french.body).toBe(200);
    expect(french.json()).toMatchObject({ id: post.id, data: { name: 'Bonjour' } });
    expect((await read(`/by-slug/bon-matin?locale=fr-CA`)).json().id).toBe(post.id);
    expect((await read(`/by-slug/bonjour?locale=fr-CA`)).json().id).toBe(post.id);
    expect((await read(`/by-slug/bonjour?locale=fr-CA&fallback=false`)).statusCode).toBe(404);
    expect((await read(`/by-slug/good-morning?locale=en-US`)).json().id).toBe(post.id);
    expect((await read(`/by-slug/bonjour?locale=en-US`)).statusCode).toBe(404);
  });

  it('filters, sorts and pages lists by the values of the locale asked for', async () => {
    const bee = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({
        name: 'Zebra',
        slug: 'zebra',
        body: '<p>Stripes</p>',
        author: 'Ann',
        _locales: { 'fr-FR': { name: 'Abeille' } },
      }),
    );
    expect((await publish(t, manager, team.ws, 'blog-post', bee.id)).statusCode).toBe(200);
    const ids = async (query: string) =>
      ((await read(`?filter[author]=Ann&${query}`)).json().items as { id: string }[]).map((i) => i.id);

    expect(await ids('order=name')).toEqual([post.id, bee.id]);
    expect(await ids('order=name&locale=fr-FR')).toEqual([bee.id, post.id]);
    expect(await ids('order=-name&locale=fr-CA')).toEqual([post.id, bee.id]);
    expect(await ids('filter[name]=Abeille&locale=fr-FR')).toEqual([bee.id]);
    expect(await ids('filter[name]=Abeille')).toEqual([]);
    expect(await ids('filter[slug]=bonjour&locale=fr-FR')).toEqual([post.id]);
    expect(await ids('filter[slug]=bon-matin&locale=fr-CA')).toEqual([post.id]);
    expect(await ids('filter[slug]=good-morning&locale=fr-FR')).toEqual([]);
    // Zebra's French slug follows its French name; it has none in fr-CA, which falls back to fr-FR.
    expect(await ids('filter[slug]=abeille&locale=fr-CA')).toEqual([bee.id]);
    expect(await ids('filter[slug]=abeille&locale=fr-CA&fallback=false')).toEqual([]);
    expect(await ids('filter[slug]=zebra&locale=fr-FR')).toEqual([]);
    expect(await ids('filter[slug][in]=bon-matin,abeille&locale=fr-CA&order=name')).toEqual([
      bee.id,
      post.id,
    ]);
    expect(await ids('filter[name][gte]=B&locale=fr-FR')).toEqual([post.id]);
    // With * lists filter by the default locale's values.
    expect(await ids('filter[name]=Zebra&locale=*')).toEqual([bee.id]);

    const first = (await read('?filter[author]=Ann&order=name&limit=1&locale=fr-FR')).json();
    expect(first.items.map((i: { id: string }) => i.id)).toEqual([bee.id]);
    const second = (
      await read(`?filter[author]=Ann&order=name&limit=1&locale=fr-FR&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items.map((i: { id: string }) => i.id)).toEqual([post.id]);
    expect(second.nextCursor).toBeNull();
  });

  it('follows a change of the fallback chains at once', async () => {
    expect((await read(`/${post.id}?locale=fr-CA`)).json().data.name).toBe('Bonjour');
    const changed = await setLocales({ ...LOCALES, fallback: { 'fr-CA': 'en-US', 'fr-FR': 'en-US' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const item = (await read(`/${post.id}?locale=fr-CA`)).json();
    expect(item.data.name).toBe('Good morning');
    expect(item._locale).toEqual({ name: 'en-US', body: 'en-US' });
    expect((await setLocales(LOCALES)).statusCode).toBe(200);
  });

  it('refuses a locale the workspace does not have', async () => {
    const res = await read(`/${post.id}?locale=de-DE`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'locale: unknown locale "de-DE" (this workspace has en-US, fr-FR, fr-CA, or *)',
    );
    expect((await read(`/${post.id}?locale=fr-FR&fallback=maybe`)).statusCode).toBe(400);
  });
});
