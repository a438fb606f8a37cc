/**
 * Content model benchmark (DESIGN §7): 1,000,000 items of one schema on PostgreSQL; a change set that
 * renames one field (author → writer) and retypes another (readingTime, text → number) is applied while
 * 20 connections keep reading and saving those items through the HTTP API. Prints how long the data
 * takes to follow (target ≤ 60 s), failed and lost requests (target 0), the p99 of the requests made
 * during the change (target < 100 ms), then how long the plan of "make this field required" takes
 * (target ≤ 5 s).
 *
 *   npm run bench -- model   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                             BENCH_MODEL_ITEMS, default 1,000,000; BENCH_MODEL_DB, default bench_model;
 *                             BENCH_SERVER_ARGS, node flags for the server)
 *
 * The real server (`scripts/start.mjs`, the job worker on) runs in its own process on a database of its
 * own, dropped at the end; items are seeded with one set-based INSERT, not through the API. Each
 * connection reads a random item of its own share (so connections never conflict), saves it back with
 * a marker in `excerpt`, and remembers the marker; afterwards every remembered marker must be in its
 * item, in the new shape.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { CONNECTIONS, waitFor } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_MODEL_ITEMS ?? 1_000_000);
const DB_NAME = process.env.BENCH_MODEL_DB ?? 'bench_model';
const PORT = 8305;
const BASE = `http://127.0.0.1:${PORT}`;
/** The load runs this long before the change; its last half is the baseline the change is compared with. */
const WARMUP_MS = 10_000;
/** The load stops this long after the data is done, or at this bound whatever happens. */
const AFTER_MS = 3_000;
const MAX_CHANGE_MS = 300_000;
/** Connections of reads and saves (BENCH_MODEL_CONNECTIONS; 0 measures the migration alone). */
const LOAD_CONNECTIONS = Number(process.env.BENCH_MODEL_CONNECTIONS ?? CONNECTIONS);
/** Node flags for the server (BENCH_SERVER_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);

const log = (...args: unknown[]) => console.log(...args);
const itemId = (i: number) => `item${String(i).padStart(8, '0')}`;
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function api(method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Sample {
  at: number;
  ms: number;
  ok: boolean;
  kind: 'read' | 'save';
}

/** One connection's loop: read a random item of its share, save it back with a marker. */
async function connection(
  n: number,
  items: string,
  token: string,
  samples: Sample[],
  failures: string[],
  markers: Map<string, string>,
  running: () => boolean,
) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let count = 0;
  while (running()) {
    const i = 1 + n + CONNECTIONS * Math.floor(Math.random() * (ITEM_COUNT / CONNECTIONS));
    const id = itemId(Math.min(i, ITEM_COUNT));
    const url = `${BASE}${items}/${id}`;
    let start = performance.now();
    const read = await fetch(url, { headers });
    const item = read.ok ? ((await read.json()) as Record<string, unknown>) : undefined;
    samples.push({ at: start, ms: performance.now() - start, ok: read.ok, kind: 'read' });
    if (!item) {
      failures.push(`GET ${id}: ${read.status}`);
      continue;
    }
    const marker = `c${n}-${count++}`;
    start = performance.now();
    const saved = await fetch(url, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        data: { ...(item.data as object), excerpt: marker },
        baseVersion: item.version,
        modelVersion: item.modelVersion,
      }),
    });
    const body = await saved.text();
    samples.push({ at: start, ms: performance.now() - start, ok: saved.ok, kind: 'save' });
    if (saved.ok) markers.set(id, marker);
    else failures.push(`PUT ${id}: ${saved.status} ${body.slice(0, 200)}`);
  }
}

async function seed(db: postgres.Sql, ws: string, userId: string, modelVersion: number) {
  log(`seeding ${ITEM_COUNT.toLocaleString()} blog posts…`);
  const t0 = performance.now();
  await db`
    insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at,
      created_at, created_by, model_version, search_text)
    select ${ws}, 'blog-post', 'item' || lpad(i::text, 8, '0'),
      jsonb_build_object('name', 'Post ' || i, 'slug', 'post-' || i, 'body', '<p>Body of post ' || i || '</p>',
        'author', 'Author ' || (i % 997), 'readingTime', (1 + i % 30)::text),
      '{}'::jsonb, 1, ${userId}, now() - i * interval '1 second', now() - i * interval '1 second', ${userId},
      ${modelVersion},
      -- The words the item list's search reads (items/search-text.ts), as every save has written them.
      concat_ws(E'\n', 'Post ' || i, 'Body of post ' || i, 'Author ' || (i % 997), (1 + i % 30)::text)
    from generate_series(1, ${ITEM_COUNT}::int) as i`;
  await db`vacuum analyze items`;
  log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main() {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
  await admin.unsafe(`create database "${DB_NAME}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-model-'));
  const server = spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      WEB_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
      JOBS: '1',
      JOBS_POLL_MS: '500',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = postgres(url.toString(), { max: 2, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server, (status) => status === 200);
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', undefined, account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', undefined, account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const ws = (await api('POST', '/api/v1/workspaces', token, { name: 'Model Bench' })).id as string;
    const modelUrl = `/api/v1/workspaces/${ws}/content-model`;
    // The reading time is a text field first (version 1), as a model grown by hand would have it.
    const added = await api('POST', `${modelUrl}/apply`, token, {
      baseVersion: 0,
      ops: [
        {
          op: 'addField',
          schema: 'blog-post',
          field: { key: 'readingTime', label: 'Reading time', type: 'text' },
        },
      ],
    });
    await seed(db, ws, user.id, added.version);

    const items = `/api/v1/workspaces/${ws}/items/blog-post`;
    const samples: Sample[] = [];
    const failures: string[] = [];
    const markers = new Map<string, string>();
    let stopAt = Infinity;
    const running = () => performance.now() < stopAt;
    const loops = Array.from({ length: LOAD_CONNECTIONS }, (_, n) =>
      connection(n, items, token, samples, failures, markers, running),
    );
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    log(`load: ${LOAD_CONNECTIONS} connections reading and saving; load average ${loadAverage()}`);

    const changeStart = performance.now();
    const applied = await api('POST', `${modelUrl}/apply`, token, {
      baseVersion: added.version,
      ops: [
        { op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' },
        {
          op: 'retypeField',
          schema: 'blog-post',
          key: 'readingTime',
          field: { key: 'readingTime', label: 'Reading time', type: 'number' },
        },
      ],
    });
    const applyMs = performance.now() - changeStart;
    log(
      `apply answered in ${applyMs.toFixed(0)} ms: ${applied.change.state}, ${applied.change.progress.total.toLocaleString()} items to convert`,
    );
    let change = applied.change;
    let lastLog = 0;
    while (change.state === 'running' && performance.now() - changeStart < MAX_CHANGE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      change = await api('GET', `${modelUrl}/changes/${applied.change.id}`, token);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(
          `  ${change.progress.done.toLocaleString()} of ${change.progress.total.toLocaleString()} after ${((performance.now() - changeStart) / 1000).toFixed(0)} s; load average ${loadAverage()}`,
        );
      }
    }
    const changeMs = performance.now() - changeStart;
    const loadDuring = loadAverage();
    stopAt = performance.now() + AFTER_MS;
    await Promise.all(loops);

    const during = samples.filter((s) => s.at >= changeStart && s.at <= changeStart + changeMs);
    const times = (kind?: Sample['kind']) =>
      during
        .filter((s) => kind === undefined || s.kind === kind)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
    const all = times();
    const before = samples
      .filter((s) => s.at < changeStart && s.at >= changeStart - WARMUP_MS / 2)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const behind =
      await db`select count(*)::int as n from items where workspace_id = ${ws} and model_version < ${applied.version}`;
    const stored = await db`
      select id, data from items where workspace_id = ${ws} and id = any(${[...markers.keys()]}::text[])`;
    const lost =
      stored.filter(
        (row) =>
          row.data.excerpt !== markers.get(row.id) ||
          'author' in row.data ||
          typeof row.data.readingTime !== 'number' ||
          typeof row.data.writer !== 'string',
      ).length +
      (markers.size - stored.length);

    // The plan of making a field required, with no migration running: counted in SQL.
    const planStart = performance.now();
    const plan = await api('POST', `${modelUrl}/plan`, token, {
      baseVersion: applied.version,
      ops: [{ op: 'updateField', schema: 'blog-post', key: 'publishDate', patch: { required: true } }],
    });
    const planMs = performance.now() - planStart;

    log('');
    log(
      `data migration of ${ITEM_COUNT.toLocaleString()} items: ${(changeMs / 1000).toFixed(1)} s (${change.state}; target ≤ 60 s); ${behind[0].n} rows left behind`,
    );
    log(
      `requests during the change: ${all.length.toLocaleString()} (${(all.length / (changeMs / 1000)).toFixed(0)}/s), p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms (target < 100 ms); reads p99 ${percentile(times('read'), 99).toFixed(1)} ms, saves p99 ${percentile(times('save'), 99).toFixed(1)} ms`,
    );
    log(
      `failed requests: ${failures.length} (of ${samples.length.toLocaleString()} in the run); lost saves: ${lost} of ${markers.size.toLocaleString()} items saved (target 0)`,
    );
    log(
      `requests in the ${WARMUP_MS / 2000} s before the change (same load): p50 ${percentile(before, 50).toFixed(1)} ms, p99 ${percentile(before, 99).toFixed(1)} ms`,
    );
    for (const failure of failures.slice(0, 5)) log(`  ${failure}`);
    log(
      `plan of "make publishDate required": ${(planMs / 1000).toFixed(2)} s, ${plan.impacts[0].failing.count.toLocaleString()} items would become incomplete (target ≤ 5 s)`,
    );
    log(
      `load average: ${loadDuring} during the change, ${loadAverage()} at the end (1, 5, 15 min; ${os.cpus().length} cores)`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await db.end();
    await admin.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
