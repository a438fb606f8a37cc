/**
 * The GraphQL delivery API beside the REST route answering the same content, in the same run (short
 * runs taking turns, BENCH_SLICES, default 5, over BENCH_DURATION seconds a side): a list of 12 blog
 * posts with one level of references (each post references two others), and a single post by slug,
 * from random workspaces; then each route's latency on one connection, the server's memory with the
 * schemas of 100 workspaces built, and the time to build the GraphQL schema of a model of 200 schemas
 * (in this process, from the schema builder itself).
 *
 *   npm run bench -- graphql     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                                 BENCH_GRAPHQL_ITEMS, default 1,000,000; BENCH_GRAPHQL_WORKSPACES, 10;
 *                                 BENCH_GRAPHQL_SCHEMAS, 100: workspaces whose schemas are built
 *                                 before the server's RSS is read)
 *
 * BENCH_PORT: the server's port (default 8195). BENCH_SERVER_ARGS passes node flags to the server
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_SCENARIOS=single runs only the single by slug.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { validateSchema } from 'graphql';
import postgres from 'postgres';
import { ContentModel, builtInModelDoc } from '../src/shared/model/registry';
import type { SchemaType } from '../src/shared/schemas/types';
import { buildDeliverySchema } from '../src/server/delivery/graphql-schema';
import { load, rssMb, waitFor, type LoadResult } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_GRAPHQL_ITEMS ?? 1_000_000);
const WORKSPACES = Number(process.env.BENCH_GRAPHQL_WORKSPACES ?? 10);
/** Workspaces whose schemas are built before the memory is read (the seeded ones among them). */
const SCHEMA_WORKSPACES = Number(process.env.BENCH_GRAPHQL_SCHEMAS ?? 100);
const PER_WORKSPACE = Math.floor(ITEM_COUNT / WORKSPACES);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const SLICES = Number(process.env.BENCH_SLICES ?? 5);
const WARMUP = 3;
const PORT = Number(process.env.BENCH_PORT ?? 8195);
const BASE = `http://127.0.0.1:${PORT}`;
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const ONLY = process.env.BENCH_SCENARIOS?.split(',');

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const itemId = (i: string) => `'item' || lpad(((${i}) % ${PER_WORKSPACE} + 1)::text, 8, '0')`;

/** Published posts, each referencing the next two, seeded in SQL (the API would take hours). */
async function seed(db: postgres.Sql, userId: string, workspaceIds: string[]) {
  const ref = (offset: number) =>
    `jsonb_build_object('id', ${itemId(`i - 1 + ${offset}`)}, 'schemaType', 'blog-post')`;
  for (const ws of workspaceIds) {
    await db.unsafe(
      `insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
       select $1, 'blog-post', 'item' || lpad(i::text, 8, '0'), 'live', 1, 1,
              jsonb_build_object('name', 'Post ' || i, 'slug', 'post-' || i, 'author', 'Bench',
                'body', '<p>Published post number ' || i || '.</p><p>' || repeat('Words worth reading. ', 12) || '</p>',
                'related', jsonb_build_array(${ref(1)}, ${ref(2)})),
              jsonb_build_object(${itemId('i')}, jsonb_build_object('schemaType', 'blog-post'),
                                 ${itemId('i + 1')}, jsonb_build_object('schemaType', 'blog-post')),
              now() - i * interval '1 second', $2, 'post-' || i
       from generate_series(1, ${PER_WORKSPACE}::int) as i`,
      [ws, userId],
    );
  }
  await db`vacuum (analyze) published`;
}

/** Workspaces whose posts have a reference list to other posts, each with a key for its live stage. */
async function sites(token: string, count: number, from = 0) {
  const made: { ws: string; authorization: string }[] = [];
  for (let n = from; n < from + count; n++) {
    const ws = await api('POST', '/api/v1/workspaces', { name: `GraphQL Bench ${n + 1}` }, token);
    const field = { key: 'related', label: 'Related', type: 'reference-list', schemaTypes: ['blog-post'] };
    await api(
      'POST',
      `/api/v1/workspaces/${ws.id}/content-model/apply`,
      { baseVersion: 0, ops: [{ op: 'addField', schema: 'blog-post', field }] },
      token,
    );
    const body = { name: 'Bench', stages: ['live'] };
    const { key } = await api('POST', `/api/v1/workspaces/${ws.id}/api-keys`, body, token);
    made.push({ ws: ws.id, authorization: `Bearer ${key}` });
  }
  return made;
}

const LIST_QUERY = `{ blogPostList(first: 12) { items { id sys { version publishedAt } name slug author body
  related { id sys { version publishedAt } name slug author body } } pageInfo { endCursor hasNextPage } } }`;
const SINGLE_QUERY = `query ($slug: String) { blogPost(slug: $slug) { id sys { version publishedAt } name slug author body previousSlugs } }`;

const encodedQueries = new Map<string, string>();

/**
 * A GET of the query: its text encoded once, so that the bench's own work a request (autocannon shares
 * the machine with the server) is no more than a REST path's.
 */
function graphqlPath(ws: string, query: string, variables?: object) {
  let encoded = encodedQueries.get(query);
  if (!encoded) encodedQueries.set(query, (encoded = new URLSearchParams({ query }).toString()));
  const asked = variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : '';
  return `/delivery/v1/${ws}/live/graphql?${encoded}${asked}`;
}

const randomSlug = () => `post-${1 + Math.floor(Math.random() * PER_WORKSPACE)}`;

/** Requests to a random workspace's `pathOf`. */
function anyOf(list: { ws: string; authorization: string }[], pathOf: (ws: string) => string) {
  return {
    url: BASE,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const site = list[Math.floor(Math.random() * list.length)];
          return {
            ...req,
            path: pathOf(site.ws),
            headers: { ...req.headers, authorization: site.authorization },
          };
        },
      },
    ],
  } satisfies autocannon.Options;
}

/** Two sides in SLICES short runs each, taking turns: both merged, and GraphQL's share of REST's rate. */
async function pair(name: string, rest: autocannon.Options, graphql: autocannon.Options, pid: number) {
  await load(`${name} REST`, { ...rest, duration: WARMUP });
  await load(`${name} GraphQL`, { ...graphql, duration: WARMUP });
  const restRuns: LoadResult[] = [];
  const graphqlRuns: LoadResult[] = [];
  for (let turn = 0; turn < SLICES; turn++) {
    const sides: [LoadResult[], string, autocannon.Options][] = [
      [restRuns, `${name} REST`, rest],
      [graphqlRuns, `${name} GraphQL`, graphql],
    ];
    if (turn % 2) sides.reverse();
    for (const [runs, side, options] of sides)
      runs.push(await load(side, { ...options, duration: DURATION / SLICES }, pid));
  }
  const merged = (side: string, runs: LoadResult[]): LoadResult => ({
    ...runs[0],
    name: side,
    reqPerSec: Math.round(runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    requests: runs.reduce((s, r) => s + r.requests, 0),
    serverCpuUs: Math.round(
      runs.reduce((s, r) => s + (r.serverCpuUs ?? 0) * r.requests, 0) /
        runs.reduce((s, r) => s + r.requests, 0),
    ),
  });
  const shares = graphqlRuns
    .map((run, turn) => run.reqPerSec / restRuns[turn].reqPerSec)
    .sort((a, b) => a - b);
  return {
    results: [merged(`${name} REST`, restRuns), merged(`${name} GraphQL`, graphqlRuns)],
    share: shares[Math.floor(shares.length / 2)],
  };
}

/** A model of `count` schemas, each with text, numbers, an image, references to others and blocks. */
function bigModel(count: number) {
  const doc = builtInModelDoc();
  doc.blockTypes.push(
    { name: 'hero', title: 'Hero', fields: [{ key: 'title', label: 'Title', type: 'text' }] },
    { name: 'quote', title: 'Quote', fields: [{ key: 'text', label: 'Text', type: 'multiline' }] },
  );
  const schemas: SchemaType[] = Array.from({ length: count }, (_, n) => ({
    name: `schema-${n}`,
    title: `Schema ${n}`,
    pluralTitle: `Schemas ${n}`,
    icon: 'file',
    topFields: ['title'],
    fields: [
      { key: 'title', label: 'Title', type: 'text' },
      { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' },
      { key: 'rank', label: 'Rank', type: 'number' },
      { key: 'image', label: 'Image', type: 'file' },
      { key: 'tags', label: 'Tags', type: 'tags' },
      { key: 'parent', label: 'Parent', type: 'reference', schemaTypes: [`schema-${(n + 1) % count}`] },
      {
        key: 'related',
        label: 'Related',
        type: 'reference-list',
        schemaTypes: [`schema-${(n + 2) % count}`, `schema-${(n + 3) % count}`],
      },
      { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['hero', 'quote'] },
    ],
  }));
  doc.domains = [{ name: 'site', title: 'Site', schemas }];
  return new ContentModel(1, doc);
}

function schemaBuildTime() {
  const model = bigModel(200);
  const schemas = model.domains.flatMap((domain) => domain.schemas);
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    const schema = buildDeliverySchema(model, schemas);
    const errors = validateSchema(schema);
    times.push(performance.now() - started);
    if (errors.length > 0) throw new Error(`schema of 200 schemas: ${errors[0].message}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `schema build, 200 schemas: median ${times[2].toFixed(0)} ms, slowest ${times[4].toFixed(0)} ms of 5 (budget < 1 s)`,
  );
}

/**
 * The server's memory once SCHEMA_WORKSPACES workspaces (the seeded ones, then new ones with the same
 * model and no items) have had both queries answered, so each one's schema and queries are built, and
 * after a run of single items by slug from all of them.
 */
async function schemasBuilt(token: string, seeded: { ws: string; authorization: string }[], pid: number) {
  const before = rssMb(pid);
  const all = [
    ...seeded,
    ...(await sites(token, Math.max(0, SCHEMA_WORKSPACES - seeded.length), seeded.length)),
  ];
  for (const site of all)
    for (const path of [
      graphqlPath(site.ws, LIST_QUERY),
      graphqlPath(site.ws, SINGLE_QUERY, { slug: randomSlug() }),
    ]) {
      const res = await fetch(`${BASE}${path}`, { headers: { authorization: site.authorization } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
  const built = rssMb(pid);
  const run = await load(
    `single by slug GraphQL, ${all.length} workspaces`,
    { ...anyOf(all, (ws) => graphqlPath(ws, SINGLE_QUERY, { slug: randomSlug() })), duration: DURATION / 3 },
    pid,
  );
  console.table([run]);
  console.log(
    `server RSS: ${before.toFixed(0)} MB after the runs on ${seeded.length} workspaces; ${built.toFixed(0)} MB with ` +
      `${all.length} workspaces' schemas built, ${rssMb(pid).toFixed(0)} MB after a run on all of them, ` +
      `peak ${rssMb(pid, true).toFixed(0)} MB (budget < 300 MB)`,
  );
}

async function main() {
  schemaBuildTime();
  const dbName = `marquee_graphql_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-graphql-'));
  const server = spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      WEB_DIR: path.join(dataDir, 'no-web'),
      DATABASE_URL: url.toString(),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = postgres(url.toString(), { max: 2, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server);
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const list = await sites(token, WORKSPACES);
    console.log(`seeding ${ITEM_COUNT.toLocaleString()} published posts over ${WORKSPACES} workspaces…`);
    await seed(
      db,
      user.id,
      list.map((site) => site.ws),
    );
    const wanted = (name: string) => !ONLY || ONLY.some((word) => name.includes(word));
    const listOptions = anyOf(list, (ws) => graphqlPath(ws, LIST_QUERY));
    const singleOptions = anyOf(list, (ws) => graphqlPath(ws, SINGLE_QUERY, { slug: randomSlug() }));
    const scenarios = [
      {
        name: 'list of 12 with references',
        rest: anyOf(list, (ws) => `/delivery/v1/${ws}/live/items/blog-post?limit=12&include=refs`),
        graphql: listOptions,
      },
      {
        name: 'single by slug',
        rest: anyOf(list, (ws) => `/delivery/v1/${ws}/live/items/blog-post/by-slug/${randomSlug()}`),
        graphql: singleOptions,
      },
    ].filter((scenario) => wanted(scenario.name));
    const results: LoadResult[] = [];
    const shares: string[] = [];
    for (const scenario of scenarios) {
      const paired = await pair(scenario.name, scenario.rest, scenario.graphql, server.pid!);
      results.push(...paired.results);
      shares.push(`${scenario.name} at ${(100 * paired.share).toFixed(0)}%`);
    }
    // One connection: no queueing, so the latency is the server's own time (plus loopback).
    for (const scenario of scenarios)
      for (const [side, options] of [
        ['REST', scenario.rest],
        ['GraphQL', scenario.graphql],
      ] as const)
        results.push(
          await load(`${scenario.name} ${side}, 1 connection`, {
            ...options,
            duration: DURATION / 3,
            connections: 1,
          }),
        );
    console.table(results);
    console.log(`GraphQL ${shares.join(', ')} of REST's rate, median of ${SLICES} turns (budget ≥ 80%)`);
    await schemasBuilt(token, list, server.pid!);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await db.end();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
