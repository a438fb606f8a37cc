import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { sql } from 'drizzle-orm';
import type { ModelOp } from '@shared/model/types';
import { run } from '../../scripts/marquee-cli.mjs';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { statementsDuring } from '../helpers/statements';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, publish, teamWorkspace } from '../factories/items';
import { applyModelChange } from '../factories/content-model';

let t: TestApp;
let manager: TestUser;
let ws: string;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Gail Graph' });
  ({ ws } = await teamWorkspace(t, manager, {
    name: 'Graph',
    domains: ['blogging', 'marketing', 'assets'],
    locales: {
      tags: ['en-US', 'fr-FR', 'fr-CA'],
      default: 'en-US',
      fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'en-US' },
    },
    roles: {},
    people: {},
  }));
  key = await newKey(ws);
});
afterAll(() => t.close());

async function newKey(workspace: string, stages = ['live']) {
  const res = await call(t, 'POST', `/api/v1/workspaces/${workspace}/api-keys`, manager, {
    name: 'Site',
    stages,
  });
  expect(res.statusCode).toBe(201);
  return res.json().key as string;
}

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
  extensions?: { cost: { requested: number; limit: number } };
}

function graphql(
  query: string,
  variables: Record<string, unknown> = {},
  options: { key?: string; workspace?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/delivery/v1/${options.workspace ?? ws}/live/graphql`,
    headers: { authorization: `Bearer ${options.key ?? key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query, variables }),
  });
}

async function data(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(query, variables);
  const answer = res.json() as Answer;
  expect(answer.errors, res.body).toBeUndefined();
  expect(res.statusCode).toBe(200);
  return answer.data as Record<string, never>;
}

async function rest(path: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${ws}/live/${path}`,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const apply = (ops: ModelOp[]) => applyModelChange(t, manager, ws, ops);

async function published(schema: string, itemData: Record<string, unknown>) {
  const item = await createItem(t, manager, ws, schema, itemData);
  const res = await publish(t, manager, ws, schema, item.id);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return item.id;
}

describe('the GraphQL delivery API', () => {
  it('answers a list and a single item as REST does', async () => {
    await published('blog-post', blogPostData({ name: 'Alpha', slug: 'alpha', tags: ['a'] }));
    await published('blog-post', blogPostData({ name: 'Beta', slug: 'beta', tags: ['b'] }));
    await published('blog-post', blogPostData({ name: 'Gamma', slug: 'gamma', tags: ['a', 'b'] }));
    const page = await data(`{
      blogPostList(first: 2, order: "name", filter: { tags: { eq: "a" } }) {
        items { id name slug tags sys { version publishedAt } }
        pageInfo { endCursor hasNextPage }
      }
    }`);
    const restPage = await rest('items/blog-post?limit=2&order=name&filter[tags]=a');
    expect(page.blogPostList).toEqual({
      items: restPage.items.map(
        (item: { id: string; version: number; publishedAt: string; data: Record<string, unknown> }) => ({
          id: item.id,
          name: item.data.name,
          slug: item.data.slug,
          tags: item.data.tags,
          sys: { version: item.version, publishedAt: item.publishedAt },
        }),
      ),
      pageInfo: { endCursor: null, hasNextPage: false },
    });
    expect((page.blogPostList as { items: unknown[] }).items).toHaveLength(2);
    const one = await data(`{ blogPost(slug: "beta") { name body previousSlugs } }`);
    const restOne = await rest('items/blog-post/by-slug/beta');
    expect(one.blogPost).toEqual({ name: 'Beta', body: restOne.data.body, previousSlugs: [] });
  });

  it('has a type, a single and a list query per delivered built-in schema, none for admin ones', async () => {
    const schema = await data(`{
      __schema { queryType { fields { name } } }
      post: __type(name: "BlogPost") { interfaces { name } fields { name } }
    }`);
    const queries = (schema.__schema as { queryType: { fields: { name: string }[] } }).queryType.fields.map(
      (field) => field.name,
    );
    expect(queries).toEqual(expect.arrayContaining(['blogPost', 'blogPostList']));
    const model = (await call(t, 'GET', `/api/v1/workspaces/${ws}/content-model`, manager)).json() as {
      model: { domains: { admin?: boolean; schemas: { name: string }[] }[] };
    };
    const admin = model.model.domains.filter((domain) => domain.admin).flatMap((domain) => domain.schemas);
    const delivered = model.model.domains
      .filter((domain) => !domain.admin)
      .flatMap((domain) => domain.schemas);
    expect(queries.length).toBe(2 * new Set(delivered.map((s) => s.name)).size);
    expect(admin.length).toBeGreaterThan(0);
    const post = schema.post as { interfaces: { name: string }[]; fields: { name: string }[] };
    expect(post.interfaces).toEqual([{ name: 'Item' }]);
    expect(post.fields.map((field) => field.name)).toEqual(
      expect.arrayContaining(['id', 'sys', 'previousSlugs', 'name', 'slug', 'body', 'coverImage', 'tags']),
    );
  });

  it('answers localised fields in the locale asked for, with REST’s fallback', async () => {
    await published(
      'blog-post',
      blogPostData({
        name: 'Hello',
        slug: 'hello',
        _locales: { 'fr-FR': { name: 'Bonjour', slug: 'bonjour' } },
      }),
    );
    const one = await data(`{
      blogPost(slug: "hello", locale: "fr-CA") { name sys { locale fellBack } en: name(locale: "en-US") }
    }`);
    const restOne = await rest('items/blog-post/by-slug/hello?locale=fr-CA');
    expect(one.blogPost).toEqual({
      name: restOne.data.name,
      sys: { locale: 'fr-CA', fellBack: restOne._locale },
      en: 'Hello',
    });
    expect(restOne.data.name).toBe('Bonjour');
    const bySlug = await data(`{ blogPost(slug: "bonjour", locale: "fr-FR") { name } }`);
    expect(bySlug.blogPost).toEqual({ name: 'Bonjour' });
    const unknown = (
      await graphql(`
        {
          blogPost(slug: "hello", locale: "de-DE") {
            name
          }
        }
      `)
    ).json() as Answer;
    expect(unknown.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(unknown.errors?.[0].message).toContain('unknown locale "de-DE"');
  });

  it('answers image fields with signed links at the size and format asked for', async () => {
    const file = await uploadImage(
      t,
      manager,
      ws,
      await makeImage({ seed: 7, width: 64, height: 48 }),
      'cover.png',
    );
    await published('blog-post', blogPostData({ name: 'Pictured', slug: 'pictured', coverImage: file }));
    const one = await data(`{
      blogPost(slug: "pictured") { coverImage { contentType publicUrl url(w: 32, format: webp) } }
    }`);
    const restOne = await rest('items/blog-post/by-slug/pictured');
    const cover = (one.blogPost as { coverImage: { contentType: string; publicUrl: string; url: string } })
      .coverImage;
    expect(cover.publicUrl).toBe(restOne.data.coverImage.publicUrl);
    expect(cover.contentType).toBe('image/png');
    const sized = new URL(cover.url);
    expect(Object.fromEntries(sized.searchParams)).toMatchObject({ w: '32', format: 'webp' });
    const image = await t.app.inject({ method: 'GET', url: `${sized.pathname}${sized.search}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('refuses keys of another workspace, missing keys and stages the key may not read', async () => {
    const other = await teamWorkspace(t, manager, { name: 'Other graph', roles: {}, people: {} });
    const otherKey = await newKey(other.ws);
    const refused = await graphql('{ __typename }', {}, { key: otherKey });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().errors[0].extensions.code).toBe('NOT_FOUND');
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/graphql?query={__typename}`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const staging = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/staging/graphql?query={__typename}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(staging.statusCode).toBe(403);
    expect((await graphql('{ __typename }', {}, { key: otherKey, workspace: other.ws })).statusCode).toBe(
      200,
    );
  });
});

describe('workspace-defined schemas', () => {
  let landing: { id: string; slug: string };
  let person: string;

  beforeAll(async () => {
    await apply([
      {
        op: 'addSchema',
        domain: 'blogging',
        schema: {
          name: 'person',
          title: 'Person',
          pluralTitle: 'People',
          icon: 'user',
          fields: [{ key: 'name', label: 'Name', type: 'text', required: true }],
          topFields: ['name'],
        },
      },
      {
        op: 'addBlockType',
        blockType: {
          name: 'quote',
          title: 'Quote',
          fields: [
            { key: 'text', label: 'Text', type: 'multiline' },
            { key: 'by', label: 'By', type: 'reference', schemaTypes: ['person'] },
          ],
        },
      },
      {
        op: 'addSchema',
        domain: 'blogging',
        schema: {
          name: 'landing-page',
          title: 'Landing page',
          pluralTitle: 'Landing pages',
          icon: 'layout',
          fields: [
            { key: 'title', label: 'Title', type: 'text', required: true },
            { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' },
            { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['quote'] },
            { key: 'owner', label: 'Owner', type: 'reference', schemaTypes: ['person'] },
            { key: 'parent', label: 'Parent', type: 'reference', schemaTypes: ['landing-page'] },
            {
              key: 'related',
              label: 'Related',
              type: 'reference-list',
              schemaTypes: ['blog-post', 'person'],
            },
          ],
          topFields: ['title'],
        },
      },
    ]);
    person = await published('person', { name: 'Ada' });
    const post = { id: await published('blog-post', blogPostData({ name: 'Delta', slug: 'delta' })) };
    const ref = (id: string, schemaType: string) => ({ id, schemaType });
    const id = await published('landing-page', {
      title: 'Spring',
      slug: 'spring',
      sections: [{ _type: 'quote', _key: 'q1', text: 'Quoted', by: ref(person, 'person') }],
      owner: ref(person, 'person'),
      related: [ref(post.id, 'blog-post'), ref(person, 'person')],
    });
    landing = { id, slug: 'spring' };
  });

  it('have types, blocks unions and references generated from the model', async () => {
    const schema = await data(`{
      landing: __type(name: "LandingPage") { fields { name type { kind name ofType { name } } } }
      related: __type(name: "LandingPageRelatedRef") { kind possibleTypes { name } }
      blocks: __type(name: "LandingPageSectionsBlock") { kind possibleTypes { name } }
    }`);
    const fields = Object.fromEntries(
      (
        schema.landing as {
          fields: { name: string; type: { name: string | null; ofType: { name: string } | null } }[];
        }
      ).fields.map((field) => [field.name, field.type.name ?? field.type.ofType?.name]),
    );
    expect(fields).toMatchObject({
      title: 'String',
      owner: 'Person',
      parent: 'LandingPage',
      related: 'LandingPageRelatedRef',
      sections: 'LandingPageSectionsBlock',
    });
    expect(schema.related).toEqual({
      kind: 'UNION',
      possibleTypes: [{ name: 'BlogPost' }, { name: 'Person' }],
    });
    expect(schema.blocks).toEqual({ kind: 'UNION', possibleTypes: [{ name: 'QuoteBlock' }] });

    const page = await data(`{
      landingPage(slug: "spring") {
        title
        owner { name }
        related { __typename ... on BlogPost { name } ... on Person { name } }
        sections { __typename ... on QuoteBlock { _key text by { id name } } }
      }
    }`);
    expect(page.landingPage).toEqual({
      title: 'Spring',
      owner: { name: 'Ada' },
      related: [
        { __typename: 'BlogPost', name: 'Delta' },
        { __typename: 'Person', name: 'Ada' },
      ],
      sections: [{ __typename: 'QuoteBlock', _key: 'q1', text: 'Quoted', by: { id: person, name: 'Ada' } }],
    });
    const restPage = await rest(`items/landing-page/${landing.id}?include=refs`);
    expect(restPage.refs[person].data.name).toBe('Ada');
  });

  it('follow a model change without a restart, old names answered as deprecated aliases', async () => {
    const before = (await graphql('{ personList { items { role } } }')).json() as Answer;
    expect(before.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    await apply([{ op: 'addField', schema: 'person', field: { key: 'role', label: 'Role', type: 'text' } }]);
    expect(await data('{ personList { items { name role } } }')).toEqual({
      personList: { items: [{ name: 'Ada', role: null }] },
    });
    await apply([{ op: 'renameField', schema: 'person', from: 'name', to: 'fullName' }]);
    const renamed = await data(`{
      personList { items { fullName name } }
      __type(name: "Person") { fields(includeDeprecated: true) { name isDeprecated } }
    }`);
    expect(renamed.personList).toEqual({ items: [{ fullName: 'Ada', name: 'Ada' }] });
    const restPerson = await rest(`items/person/${person}`);
    expect(restPerson._deprecated.name.renamedTo).toBe('fullName');
    expect((renamed.__type as { fields: { name: string; isDeprecated: boolean }[] }).fields).toEqual(
      expect.arrayContaining([
        { name: 'fullName', isDeprecated: false },
        { name: 'name', isDeprecated: true },
      ]),
    );
  });

  it('check a query kept parsed anew after a model change, and in another workspace', async () => {
    const query = '{ personList { items { nickname } } }';
    const refused = (await graphql(query)).json() as Answer;
    expect(refused.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const nickname = { key: 'nickname', label: 'Nickname', type: 'text' } as const;
    await apply([{ op: 'addField', schema: 'person', field: nickname }]);
    expect(await data(query)).toEqual({ personList: { items: [{ nickname: null }] } });

    const other = await teamWorkspace(t, manager, { name: 'Kept graph', roles: {}, people: {} });
    const otherKey = await newKey(other.ws);
    const person = { name: 'person', title: 'Person', pluralTitle: 'People', icon: 'user' };
    const name = { key: 'name', label: 'Name', type: 'text' } as const;
    await applyModelChange(t, manager, other.ws, [
      { op: 'addSchema', domain: 'blogging', schema: { ...person, fields: [name], topFields: ['name'] } },
    ]);
    const elsewhere = (await graphql(query, {}, { key: otherKey, workspace: other.ws })).json() as Answer;
    expect(elsewhere.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');

    await apply([{ op: 'removeField', schema: 'person', key: 'nickname' }]);
    const removed = (await graphql(query)).json() as Answer;
    expect(removed.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuse queries over the cost or depth limit with the cost, before reading', async () => {
    const costly = await graphql(`
      {
        landingPageList(first: 100) {
          items {
            parent {
              id
            }
            a: related {
              ...P
            }
            b: related {
              ...P
            }
            c: related {
              ...P
            }
            d: related {
              ...P
            }
            e: related {
              ...P
            }
            f: related {
              ...P
            }
          }
        }
      }
      fragment P on Person {
        id
      }
    `);
    expect(costly.statusCode).toBe(400);
    const answer = costly.json() as Answer;
    expect(answer.errors?.[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
    expect(answer.extensions?.cost).toEqual({ requested: 1 + 100 * (1 + 1 + 6 * 10), limit: 5000 });
    const nested = 'parent { '.repeat(12) + 'id' + ' }'.repeat(12);
    const deep = await graphql(`{ landingPage(slug: "spring") { ${nested} } }`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errors[0].extensions.code).toBe('DEPTH_LIMIT_EXCEEDED');
    const cheap = (
      await graphql(`
        {
          landingPage(slug: "spring") {
            parent {
              id
            }
          }
        }
      `)
    ).json() as Answer;
    expect(cheap.extensions?.cost).toEqual({ requested: 2, limit: 5000 });

    // The same query costs what its variables ask for, each time: measured once per value of `first`.
    const paged = `query ($first: Int, $title: String) {
      landingPageList(first: $first, filter: { title: { eq: $title } }) { items { related { ...on Person { id } } } }
    }`;
    const costs = [];
    for (const [first, title] of [
      [2, 'Spring'],
      [2, 'Autumn'],
      [50, 'Spring'],
      [2, 'Spring'],
    ] as const)
      costs.push(((await graphql(paged, { first, title })).json() as Answer).extensions?.cost.requested);
    // The page, and per item itself and its 10 related.
    expect(costs).toEqual([1 + 2 * 11, 1 + 2 * 11, 1 + 50 * 11, 1 + 2 * 11]);
  });
});

describe('hostile and malformed queries', () => {
  it('are answered 4xx with GraphQL errors, never 500', async () => {
    const cases: [string, number, string][] = [
      ['{', 400, 'GRAPHQL_PARSE_FAILED'],
      ['{ nope }', 400, 'GRAPHQL_VALIDATION_FAILED'],
      [
        `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
        413,
        'QUERY_TOO_LARGE',
      ],
      [
        `{ ${Array.from({ length: 1500 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
        400,
        'GRAPHQL_PARSE_FAILED',
      ],
      [
        '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
        400,
        'GRAPHQL_VALIDATION_FAILED',
      ],
      [`{ blogPost(slug: "${'x'.repeat(40_000)}") { id } }`, 413, 'QUERY_TOO_LARGE'],
      [`${'{ a '.repeat(3000)}${'}'.repeat(3000)}`, 400, 'GRAPHQL_PARSE_FAILED'],
      [
        'query { __schema { types { fields { type { fields { type { fields { name } } } } } } } }',
        400,
        'GRAPHQL_VALIDATION_FAILED',
      ],
      ['mutation { x }', 400, 'GRAPHQL_VALIDATION_FAILED'],
    ];
    for (const [query, status, code] of cases) {
      const res = await graphql(query);
      expect(res.statusCode, query.slice(0, 80)).toBe(status);
      expect(res.json().errors[0].extensions.code, query.slice(0, 80)).toBe(code);
    }
    const badVariables = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/graphql?query={__typename}&variables=nope`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(badVariables.statusCode).toBe(400);
    const wrongType = await graphql('query ($n: Int) { blogPostList(first: $n) { items { id } } }', {
      n: 'many',
    });
    expect(wrongType.statusCode).toBe(400);
    const tooMany = (await graphql('{ blogPostList(first: 101) { items { id } } }')).json() as Answer;
    expect(tooMany.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    const badFilter = (await graphql('{ blogPostList(order: "nope") { items { id } } }')).json() as Answer;
    expect(badFilter.errors?.[0]).toMatchObject({
      message: 'order: unknown field "nope"',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('persisted queries over GET', () => {
  const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/graphql?${new URLSearchParams(params)}`,
      headers: { authorization: `Bearer ${key}`, ...headers },
    });

  it('run by their sha256 once sent, with REST’s caching headers', async () => {
    const query = '{ blogPost(slug: "beta") { name } }';
    const sha256Hash = crypto.hash('sha256', query, 'hex');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash } });
    const missing = await get({ extensions });
    expect(missing.json().errors[0]).toEqual({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(missing.headers['cache-control']).toBe('no-store');
    const mismatch = await get({ query: '{ __typename }', extensions });
    expect(mismatch.statusCode).toBe(400);
    const sent = await get({ query, extensions });
    expect(sent.statusCode).toBe(200);
    const byHash = await get({ extensions });
    expect(byHash.statusCode).toBe(200);
    expect(byHash.json().data).toEqual({ blogPost: { name: 'Beta' } });
    const restOne = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/items/blog-post/by-slug/beta`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byHash.headers['cache-control']).toBe(restOne.headers['cache-control']);
    const keysOf = (header: unknown) => String(header).split(/[ ,]/).sort();
    expect(keysOf(byHash.headers['surrogate-key'])).toEqual(keysOf(restOne.headers['surrogate-key']));
    expect(keysOf(byHash.headers['cache-tag'])).toEqual(keysOf(restOne.headers['cache-tag']));
    expect(byHash.headers.etag).toMatch(/^"/);
    const again = await get({ extensions }, { 'if-none-match': String(byHash.headers.etag) });
    expect(again.statusCode).toBe(304);
  });
});

describe('references', () => {
  it('are read one query a level, however many items the level holds', async () => {
    const other = await teamWorkspace(t, manager, { name: 'Batched graph', roles: {}, people: {} });
    const otherKey = await newKey(other.ws);
    const field = { key: 'related', label: 'Related', type: 'reference-list', schemaTypes: ['blog-post'] };
    await applyModelChange(t, manager, other.ws, [{ op: 'addField', schema: 'blog-post', field } as ModelOp]);
    // 36 posts, each referencing the next two (the last ones the first ones).
    const id = (i: string) => `'post' || lpad((((${i}) - 1) % 36 + 1)::text, 2, '0')`;
    const ref = (i: string) => `jsonb_build_object('id', ${id(i)}, 'schemaType', 'blog-post')`;
    await t.database.db.execute(
      sql.raw(`
      insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
      select '${other.ws}', 'blog-post', ${id('i')}, 'live', 1, 1,
             jsonb_build_object('name', 'Post ' || lpad(i::text, 2, '0'), 'slug', 'post-' || i,
               'related', jsonb_build_array(${ref('i + 1')}, ${ref('i + 2')})),
             jsonb_build_object(${id('i + 1')}, jsonb_build_object('schemaType', 'blog-post'),
                                ${id('i + 2')}, jsonb_build_object('schemaType', 'blog-post')),
             timestamptz '2026-01-01' + i * interval '1 second', '${manager.id}', 'post-' || i
      from generate_series(1, 36) as i`),
    );
    type Post = { name: string; related: Post[] };
    const statementsOf = async (first: number, levels: number) => {
      const related = 'related { name '.repeat(levels) + '}'.repeat(levels);
      const query = `query ($first: Int) { blogPostList(first: $first, order: "name") { items { name ${related} } } }`;
      const { result, statements } = await statementsDuring(t.database.db, () =>
        graphql(query, { first }, { key: otherKey, workspace: other.ws }),
      );
      const answer = result.json() as { data: { blogPostList: { items: Post[] } } };
      expect(result.statusCode, result.body).toBe(200);
      return { items: answer.data.blogPostList.items, count: statements.length };
    };
    // The key, the model and the locales read once, kept for the requests after.
    await statementsOf(1, 0);

    const two = await statementsOf(2, 1);
    const twelve = await statementsOf(12, 1);
    const deeper = await statementsOf(12, 2);
    expect(twelve.items).toHaveLength(12);
    expect(twelve.items[11]).toEqual({
      name: 'Post 12',
      related: [{ name: 'Post 13' }, { name: 'Post 14' }],
    });
    expect(deeper.items[0].related[1].related.map((post) => post.name)).toEqual(['Post 04', 'Post 05']);
    // The page, then one read of the 24 references, then one of those they reference not read yet.
    expect(twelve.count).toBe(two.count);
    expect(twelve.count).toBeGreaterThanOrEqual(2);
    expect(deeper.count).toBe(twelve.count + 1);
  });
});

describe('paging', () => {
  it('walks a few thousand items once each', async () => {
    const seeded = 3000;
    const other = await teamWorkspace(t, manager, { name: 'Many graph', roles: {}, people: {} });
    const otherKey = await newKey(other.ws);
    await t.database.db.execute(sql`
      insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
      select ${other.ws}, 'blog-post', 'seed' || lpad(i::text, 5, '0'), 'live', 1, 1,
             jsonb_build_object('name', 'Post ' || (i % 97), 'slug', 'post-' || i), '{}'::jsonb,
             timestamptz '2026-01-01' + (i / 3) * interval '1 millisecond', ${manager.id}, 'post-' || i
      from generate_series(1, ${seeded}::int) as i`);
    const seen = new Set<string>();
    let after: string | null = null;
    for (let pages = 0; pages <= seeded / 100; pages++) {
      const res = await graphql(
        'query ($after: String) { blogPostList(first: 100, after: $after, order: "name") { items { id } pageInfo { endCursor hasNextPage } } }',
        { after },
        { key: otherKey, workspace: other.ws },
      );
      const list = (
        res.json() as {
          data: {
            blogPostList: {
              items: { id: string }[];
              pageInfo: { endCursor: string | null; hasNextPage: boolean };
            };
          };
        }
      ).data.blogPostList;
      for (const item of list.items) {
        expect(seen.has(item.id)).toBe(false);
        seen.add(item.id);
      }
      after = list.pageInfo.endCursor;
      if (!list.pageInfo.hasNextPage) break;
    }
    expect(seen.size).toBe(seeded);
    expect(after).toBeNull();
  });
});

describe('npx marquee graphql cost', () => {
  async function cli(...args: string[]) {
    let out = '';
    let err = '';
    const code = await run(args, {
      env: {},
      write: (text: string) => (out += text),
      error: (text: string) => (err += text),
    });
    return { code, out, err };
  }

  it('counts what the server counts, from the endpoint or a schema file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-graphql-'));
    try {
      const query = '{ landingPageList { items { title owner { id } related { ... on Person { id } } } } }';
      const file = path.join(dir, 'page.graphql');
      fs.writeFileSync(file, query);
      const server = ((await graphql(query)).json() as Answer).extensions!.cost;
      // The page, and its 20 items (by default) each with its owner and 10 related.
      expect(server.requested).toBe(1 + 20 * (1 + 1 + 10));

      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const online = await cli('graphql', 'cost', file, '--url', url, '--key', key, '--workspace', ws);
      expect(online.code, online.err).toBe(0);
      expect(JSON.parse(online.out)).toEqual({
        requested: server.requested,
        depth: 4,
        maxCost: 5000,
        maxDepth: 10,
      });

      const introspection = (await graphql(getIntrospectionQuery())).json() as { data: never };
      const sdl = path.join(dir, 'schema.graphql');
      fs.writeFileSync(sdl, printSchema(buildClientSchema(introspection.data)));
      const offline = await cli('graphql', 'cost', file, '--schema', sdl, '--max-cost', '100');
      expect(offline.code).toBe(1);
      expect(JSON.parse(offline.out).requested).toBe(server.requested);
      expect(offline.err).toContain(`over the limits (cost ${server.requested} of 100`);

      fs.writeFileSync(file, '{ nope }');
      const invalid = await cli('graphql', 'cost', file, '--schema', sdl);
      expect(invalid.code).toBe(1);
      expect(invalid.err).toContain('Cannot query field "nope" on type "Query"');
      expect((await cli('graphql', 'cost', file)).code).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
