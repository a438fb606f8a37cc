import type { Item } from '@shared/api/items';
import { POISONED_BODY_MESSAGE, UNSAFE_KEY_MESSAGE, UNSAFE_TEXT_MESSAGE } from '@server/http/input-guard';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { blogPostData, call, createItem, getItem, itemUrl, role } from '../factories/items';

/**
 * Bad input to a workspace's locales, to a role's locales and to an item's `_locales`: each answers 400
 * with a message naming what is wrong, and changes nothing.
 */

let t: TestApp;
let manager: TestUser;
let ws: string;
let post: Item;

const LOCALES = { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } };

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Lea Manager' });
  const created = await createWorkspace(t.app, manager, 'Locale input');
  ws = created.id;
  const res = await patchWorkspace(t.app, manager, ws, {
    basics: { locales: LOCALES },
    roles: {
      ...created.roles,
      french: role('French editor', { canEdit: ['blog-post'], locales: ['fr-FR'] }),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  post = await createItem(
    t,
    manager,
    ws,
    'blog-post',
    blogPostData({ name: 'Kept', _locales: { 'fr-FR': { name: 'Gardé' } } }),
  );
});
afterAll(() => t.close());

const workspace = async () => (await call(t, 'GET', `/api/v1/workspaces/${ws}`, manager)).json();
const rawPatch = (url: string, method: 'PATCH' | 'PUT', body: string) =>
  t.app.inject({
    method,
    url,
    headers: { ...manager.auth, 'content-type': 'application/json' },
    payload: body,
  });

/** Sends each body and expects a 400 whose message holds the text given, and the workspace unchanged. */
async function expectRefused(cases: [body: object | string, message: string][]) {
  const before = await workspace();
  for (const [body, message] of cases) {
    const res =
      typeof body === 'string'
        ? await rawPatch(`/api/v1/workspaces/${ws}`, 'PATCH', body)
        : await patchWorkspace(t.app, manager, ws, body);
    const what = (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 120);
    expect({ what, status: res.statusCode }).toEqual({ what, status: 400 });
    expect(res.json().error.message, what).toContain(message);
  }
  const after = await workspace();
  expect(after.version).toBe(before.version);
  expect(after.basics.locales).toEqual(LOCALES);
  expect(after.roles).toEqual(before.roles);
}

const many = (count: number) => Array.from({ length: count }, (_, i) => `en-${String(i).padStart(5, '0')}`);

describe('basics.locales', () => {
  it('refuses NUL, built-in names, huge lists, long and non-canonical tags and absent fallbacks', async () => {
    const locales = (patch: object) => ({ basics: { locales: { ...LOCALES, ...patch } } });
    await expectRefused([
      [locales({ tags: ['en-US', 'fr\u0000FR'] }), `basics.locales.tags.1: ${UNSAFE_TEXT_MESSAGE}`],
      [locales({ fallback: { 'fr\u0000FR': 'en-US' } }), UNSAFE_KEY_MESSAGE],
      [locales({ tags: ['en-US', '__proto__'] }), 'Unknown locale "__proto__"'],
      [locales({ tags: ['en-US', 'constructor'] }), 'Unknown locale "constructor"'],
      [locales({ tags: ['en-US', 'prototype'] }), 'Unknown locale "prototype"'],
      [locales({ default: 'constructor' }), 'The default locale constructor must be one of'],
      [locales({ fallback: { constructor: 'en-US' } }), 'Unknown locale "constructor"'],
      [locales({ fallback: { prototype: 'en-US' } }), 'Unknown locale "prototype"'],
      [locales({ fallback: { 'fr-FR': 'constructor' } }), 'fr-FR cannot fall back to constructor'],
      [locales({ fallback: { 'fr-FR': 'de-DE' } }), 'fr-FR cannot fall back to de-DE'],
      [
        locales({ fallback: { 'de-DE': 'en-US' } }),
        "basics.locales: de-DE is not one of the workspace's locales",
      ],
      [locales({ fields: { constructor: {} } }), 'Schema "constructor" not found'],
      [locales({ fields: { prototype: {} } }), 'Schema "prototype" not found'],
      [
        locales({ fields: { 'blog-post': { constructor: { requiredIn: [] } } } }),
        'Schema "blog-post" has no field "constructor"',
      ],
      [
        locales({ fields: { 'blog-post': { name: { requiredIn: ['prototype'] } } } }),
        'Unknown locale "prototype"',
      ],
      [locales({ tags: many(10_000) }), 'basics.locales.tags'],
      [
        locales({ fallback: Object.fromEntries(many(10_000).map((tag) => [tag, 'en-US'])) }),
        'basics.locales.fallback',
      ],
      [
        locales({ fields: Object.fromEntries(many(10_000).map((name) => [name, {}])) }),
        'basics.locales.fields',
      ],
      [locales({ tags: ['en-US', `fr-${'x'.repeat(10_000)}`] }), 'basics.locales.tags.1'],
      [locales({ tags: ['en-US', 'fr-fr'] }), 'Unknown locale "fr-fr"'],
      [locales({ tags: ['en-US', 'fr_FR'] }), 'Unknown locale "fr_FR"'],
      [locales({ tags: ['en-US', 'EN-us'] }), 'Unknown locale "EN-us"'],
      [
        `{"basics":{"locales":{"tags":["en-US"],"default":"en-US","fallback":{"__proto__":"en-US"}}}}`,
        POISONED_BODY_MESSAGE,
      ],
      [
        `{"basics":{"locales":{"tags":["en-US"],"default":"en-US","fallback":{},"fields":{"__proto__":{}}}}}`,
        POISONED_BODY_MESSAGE,
      ],
      [
        `{"basics":{"locales":{"tags":["en-US"],"default":"en-US","fallback":{"constructor":{"prototype":"x"}}}}}`,
        POISONED_BODY_MESSAGE,
      ],
    ]);
  });
});

describe('role locales', () => {
  const roles = (locales: unknown) => ({
    roles: { french: { ...role('French editor', { canEdit: ['blog-post'] }), locales } },
  });

  it('refuse locales the workspace does not have, built-in names, NUL, huge lists and long tags', async () => {
    await expectRefused([
      [roles(['de-DE']), "roles.french.locales: de-DE is not one of the workspace's locales"],
      [roles(['fr-FR', 'xx-YY']), "roles.french.locales: xx-YY is not one of the workspace's locales"],
      [roles(['fr-fr']), "roles.french.locales: fr-fr is not one of the workspace's locales"],
      [roles(['constructor']), "roles.french.locales: constructor is not one of the workspace's locales"],
      [roles(['__proto__']), "roles.french.locales: __proto__ is not one of the workspace's locales"],
      [roles(['prototype']), "roles.french.locales: prototype is not one of the workspace's locales"],
      [roles(['fr\u0000FR']), `roles.french.locales.0: ${UNSAFE_TEXT_MESSAGE}`],
      [roles(many(10_000)), 'roles.french.locales'],
      [roles([`fr-${'x'.repeat(10_000)}`]), 'roles.french.locales.0'],
      [roles('fr-FR'), 'roles.french.locales'],
    ]);
  });

  it('refuse locales in a workspace without any', async () => {
    const plain = (await createWorkspace(t.app, manager, 'No locales')).id;
    const res = await patchWorkspace(t.app, manager, plain, roles(['fr-FR']));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'roles.french.locales: This workspace has no locales: add them in Settings › Locales first',
    );
  });

  it('keep a locale since removed that the role already held, without letting another be added', async () => {
    const other = (await createWorkspace(t.app, manager, 'Removed locale')).id;
    const three = { tags: ['en-US', 'fr-FR', 'fr-CA'], default: 'en-US', fallback: {} };
    const saved = await patchWorkspace(t.app, manager, other, {
      basics: { locales: three },
      ...roles(['fr-FR', 'fr-CA']),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const removed = await patchWorkspace(t.app, manager, other, {
      basics: { locales: { ...three, tags: ['en-US', 'fr-FR'] } },
      confirmRemoveLocales: ['fr-CA'],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const renamed = await patchWorkspace(t.app, manager, other, {
      roles: {
        french: { ...role('French translator', { canEdit: ['blog-post'] }), locales: ['fr-FR', 'fr-CA'] },
      },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const added = await patchWorkspace(t.app, manager, other, roles(['fr-FR', 'fr-CA', 'de-DE']));
    expect(added.statusCode).toBe(400);
  });
});

describe('item _locales', () => {
  it('refuses built-in names and unknown tags as locales, and __proto__ anywhere, leaving the item as it was', async () => {
    const url = itemUrl(ws, 'blog-post', post.id);
    const body = (locales: string) =>
      `{"baseVersion":${post.version},"data":${JSON.stringify({ ...post.data, _locales: null }).replace('"_locales":null', `"_locales":${locales}`)}}`;
    const cases: [string, string][] = [
      ['{"constructor":{"name":"x"}}', 'Unknown locale "constructor"'],
      ['{"prototype":{"name":"x"}}', 'Unknown locale "prototype"'],
      ['{"toString":{"name":"x"}}', 'Unknown locale "toString"'],
      ['{"fr-fr":{"name":"x"}}', 'Unknown locale "fr-fr"'],
      ['{"__proto__":{"name":"x"}}', POISONED_BODY_MESSAGE],
      ['{"constructor":{"prototype":{"name":"x"}}}', POISONED_BODY_MESSAGE],
      ['{"fr-FR":{"__proto__":{"name":"x"}}}', POISONED_BODY_MESSAGE],
      ['{"fr-FR":{"constructor":"x"}}', 'constructor'],
    ];
    for (const [locales, message] of cases) {
      const res = await rawPatch(url, 'PUT', body(locales));
      expect({ locales, status: res.statusCode }).toEqual({ locales, status: 400 });
      expect(res.json().error.message, locales).toContain(message);
    }
    const after = await getItem(t, manager, ws, 'blog-post', post.id);
    expect(after.version).toBe(post.version);
    expect(after.data._locales).toEqual(post.data._locales);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });
});
