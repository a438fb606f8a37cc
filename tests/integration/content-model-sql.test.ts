import { sql } from 'drizzle-orm';
import type { ContentModelAnswer, ModelApplied } from '@shared/api/content-model';
import type { ModelOp } from '@shared/model/types';
import { rows } from '@server/db/migrate';
import type { MigrationOptions } from '@server/model/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { migrateModelData } from '../factories/content-model';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, publish, teamWorkspace } from '../factories/items';

let t: TestApp;
let manager: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Sam Sequel' });
});
afterAll(() => t.close());

const migrate = (ws: string, options?: MigrationOptions) => migrateModelData(t, ws, options);
const modelUrl = (ws: string, rest = '') => `/api/v1/workspaces/${ws}/content-model${rest}`;

async function modelVersion(ws: string) {
  return ((await call(t, 'GET', modelUrl(ws), manager)).json() as ContentModelAnswer).version;
}

async function apply(ws: string, ops: ModelOp[], options?: MigrationOptions): Promise<ModelApplied> {
  const res = await call(t, 'POST', modelUrl(ws, '/apply'), manager, {
    baseVersion: await modelVersion(ws),
    ops,
  });
  expect(res.statusCode).toBe(200);
  await migrate(ws, options);
  return res.json();
}

const text = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  label: key,
  type: 'text',
  ...extra,
});

const setup: ModelOp[] = [
  { op: 'addField', schema: 'blog-post', field: text('readingTime') },
  { op: 'addField', schema: 'blog-post', field: text('subtitle', { localized: true }) },
  { op: 'addField', schema: 'blog-post', field: text('summary') },
  { op: 'addField', schema: 'blog-post', field: { key: 'wordCount', label: 'Words', type: 'number' } },
  {
    op: 'addField',
    schema: 'blog-post',
    field: { key: 'related', label: 'Related', type: 'reference', schemaTypes: ['blog-post'] },
  },
  { op: 'addBlockType', blockType: { name: 'quote', title: 'Quote', fields: [text('said')] } },
  {
    op: 'addField',
    schema: 'blog-post',
    field: { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['quote'] },
  },
] as ModelOp[];

/** Items of every shape the change meets: values that convert and do not, locales, blocks, a reference. */
const variants = (first: string): Record<string, unknown>[] => [
  { author: 'Ann', readingTime: '5', wordCount: 1200, excerpt: 'Short words', publishDate: '2026-01-01' },
  { readingTime: '007', subtitle: 'Sub', _locales: { 'fr-FR': { name: 'Bonjour', subtitle: 'Sous-titre' } } },
  { readingTime: 'about ten', author: 'Bo', summary: 'done' },
  { readingTime: ' 5', excerpt: 'line one\nline two', summary: 'done' },
  { readingTime: '1.50', author: '1.50', summary: 'done' },
  { readingTime: '-0', excerpt: 'Gone', summary: 'done', tags: ['a', 'b'] },
  { readingTime: '.5', wordCount: 0.25, summary: 'done' },
  { readingTime: '1e3', summary: 'done' },
  { readingTime: '12345678901234567890', summary: 'done' },
  { summary: 'done' },
  {},
  { readingTime: '3', sections: [{ _type: 'quote', _key: 'q1', said: 'Quoted' }], summary: 'done' },
  { readingTime: '4', related: { id: first, schemaType: 'blog-post' }, summary: 'done', author: 'Cy' },
  {
    readingTime: '8',
    author: 'Di',
    summary: 'done',
    subtitle: 'Huit',
    _locales: { 'fr-FR': { name: 'Huit' } },
  },
  { readingTime: '9', _locales: { 'fr-FR': { subtitle: 'Neuf' } }, summary: 'done' },
  { readingTime: '12', excerpt: 'Kept words', publishDate: '2026-02-02' },
  { readingTime: '2.50', summary: 'done', publishDate: '2026-03-03' },
  { readingTime: '', author: '', summary: 'done' },
];

const change: ModelOp[] = [
  { op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' },
  { op: 'renameField', schema: 'blog-post', from: 'subtitle', to: 'strapline' },
  {
    op: 'retypeField',
    schema: 'blog-post',
    key: 'readingTime',
    field: { ...text('readingTime'), type: 'number' },
  },
  { op: 'retypeField', schema: 'blog-post', key: 'wordCount', field: text('wordCount') },
  { op: 'removeField', schema: 'blog-post', key: 'publishDate' },
  { op: 'removeField', schema: 'blog-post', key: 'excerpt' },
] as ModelOp[];

/** A workspace of the variants, some published, `summary` then made required (some items incomplete). */
async function workspace(name: string) {
  const { ws } = await teamWorkspace(t, manager, {
    name,
    locales: { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } },
    roles: {},
    people: {},
  });
  await apply(ws, setup);
  const ids: string[] = [];
  for (let i = 0; i < variants('').length; i++) {
    const data = blogPostData({ name: `Post ${i}`, slug: `post-${i}`, ...variants(ids[0] ?? '')[i] });
    const created = await createItem(t, manager, ws, 'blog-post', data);
    ids.push(created.id);
    if (i % 3 === 0) expect((await publish(t, manager, ws, 'blog-post', created.id)).statusCode).toBe(200);
  }
  await apply(ws, [{ op: 'updateField', schema: 'blog-post', key: 'summary', patch: { required: true } }]);
  return { ws, ids };
}

/** Every row of the workspace's posts and what the change kept of them, the item ids named by their order. */
async function stored(ws: string, ids: string[], changeId: string) {
  const named = (value: string) => ids.reduce((text, id, i) => text.replaceAll(id, `#${i}`), value);
  const items = rows<Record<string, unknown>>(
    await t.database.db.execute(sql`
      select id, data::text as data, has_errors, search_text, version, model_version from items
      where workspace_id = ${ws} and schema = 'blog-post' order by data ->> 'slug'`),
  );
  const copies = rows<Record<string, unknown>>(
    await t.database.db.execute(sql`
      select id, stage, data::text as data, version, model_version from published
      where workspace_id = ${ws} and schema = 'blog-post' order by data ->> 'slug', stage`),
  );
  const kept = rows<Record<string, unknown>>(
    await t.database.db.execute(sql`
      select item_id, kept::text as kept from content_model_kept where change_id = ${changeId} order by item_id`),
  );
  return JSON.parse(
    named(
      JSON.stringify({
        items,
        copies,
        kept: kept.sort((a, b) => named(String(a.item_id)).localeCompare(named(String(b.item_id)))),
      }),
    ),
  );
}

describe('a model change converted in SQL', () => {
  it('leaves every row, search text, completeness and kept value as the replay in the server does', async () => {
    const inSql = await workspace('In SQL');
    const replayed = await workspace('Replayed');
    // Stopped after two batches, then resumed.
    let batches = 0;
    const a = await apply(inSql.ws, change, { batchSize: 4, shouldStop: () => batches++ >= 2 });
    expect(await migrate(inSql.ws)).toBe(true);
    const b = await apply(replayed.ws, change, { sql: false });
    const viaSql = await stored(inSql.ws, inSql.ids, a.change!.id);
    const viaJs = await stored(replayed.ws, replayed.ids, b.change!.id);
    expect(viaSql.items.length).toBe(18);
    expect(viaSql.kept.length).toBeGreaterThan(0);
    expect(viaSql).toEqual(viaJs);

    // The kept values bring the same data back when the change is reverted.
    for (const [{ ws }, applied] of [
      [inSql, a],
      [replayed, b],
    ] as const) {
      const res = await call(t, 'POST', modelUrl(ws, `/changes/${applied.change!.id}/revert`), manager, {
        baseVersion: await modelVersion(ws),
      });
      expect(res.statusCode).toBe(200);
      await migrate(ws);
    }
    const back = (await stored(inSql.ws, inSql.ids, a.change!.id)).items;
    expect(back).toEqual((await stored(replayed.ws, replayed.ids, b.change!.id)).items);
  });
});
