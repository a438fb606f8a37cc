/**
 * HTTP under load, the way peers are measured (DESIGN §7): the real server (`scripts/start.mjs`) on a
 * fresh PostgreSQL database with 100,000 seeded items; autocannon with 20 connections, 15 s after a 3 s
 * warm-up, for list (first page of 12 by last update), single (a random id) and create (with its history
 * row). Prints req/s, p50, p99, non-2xx answers and the server's peak RSS.
 *
 *   npx tsx bench/http.ts     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *
 * Beside single, a bare Fastify route (its own process) answers that very item JSON, for the share of
 * single against it (DESIGN §7: ≥ 25%).
 *
 * BENCH_ONLY=list,single runs only the scenarios whose names start with those words (single brings the
 * bare route along); BENCH_SERVER_ARGS passes node flags to the server (e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof" to profile it); BENCH_RESULTS_FILE writes the figures there as JSON too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import postgres from 'postgres';
import { startBareServer } from './bare-server';
import { load, waitFor, type LoadResult } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_HTTP_ITEMS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = 3;
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PORT = 8183;
const BASE = `http://127.0.0.1:${PORT}`;
const BARE_PORT = 8186;
const BARE = `http://127.0.0.1:${BARE_PORT}`;
const RESULTS_FILE = process.env.BENCH_RESULTS_FILE;

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Peak resident set size of a process, from Linux's /proc. */
function peakRssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function main() {
  const dbName = `marquee_http_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-http-'));
  const server = spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let bare: ChildProcess | undefined;
  const db = postgres(url.toString(), { max: 2, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server, (status) => status === 200);
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const ws = await api('POST', '/api/v1/workspaces', { name: 'HTTP Bench' }, token);
    await api(
      'PATCH',
      `/api/v1/workspaces/${ws.id}`,
      { basics: { domains: ['marketing', 'blogging'] } },
      token,
    );

    console.log(`seeding ${ITEM_COUNT.toLocaleString()} items…`);
    await db`
      insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by)
      select ${ws.id}, case when i % 2 = 0 then 'blog-post' else 'copy' end, 'item' || lpad(i::text, 8, '0'),
             jsonb_build_object('name', 'Item ' || i), '{}'::jsonb, 1, ${user.id},
             now() - i * interval '1 second', now() - i * interval '1 second', ${user.id}
      from generate_series(1, ${ITEM_COUNT}::int) as i`;
    await db`
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs)
      select workspace_id, schema, id, 1, created_at, created_by, data, refs from items where workspace_id = ${ws.id}`;
    await db`analyze`;

    const createBody = {
      data: {
        name: 'Created under load',
        slug: 'created-under-load',
        body: '<p>Written by the benchmark.</p>',
      },
    };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const items = `/api/v1/workspaces/${ws.id}/items`;
    const randomId = () =>
      `item${String(2 * (1 + Math.floor(Math.random() * (ITEM_COUNT / 2)))).padStart(8, '0')}`;
    const scenarios: [string, autocannon.Options][] = [
      ['list (first page of 12)', { url: `${BASE}${items}/blog-post?limit=12`, headers }],
      [
        'single (random id)',
        {
          url: BASE,
          headers,
          requests: [
            { method: 'GET', setupRequest: (req) => ({ ...req, path: `${items}/blog-post/${randomId()}` }) },
          ],
        },
      ],
      [
        'create (with history row)',
        {
          url: `${BASE}/fun/items/blog-post?__marquee_workspace=${ws.id}`,
          method: 'POST',
          headers,
          body: JSON.stringify(createBody),
        },
      ],
    ];
    // One create by hand first, so a refused request fails loudly instead of counting as non-2xx.
    await api('POST', `/fun/items/blog-post?__marquee_workspace=${ws.id}`, createBody, token);
    // Beside single: a bare Fastify route answering the very JSON of a single item (DESIGN §7).
    const singleBody = await (await fetch(`${BASE}${items}/blog-post/${randomId()}`, { headers })).text();
    bare = startBareServer(dataDir, BARE_PORT, { single: singleBody });
    await waitFor(`${BARE}/single/x`, bare);
    scenarios.push([
      'bare Fastify, same single JSON',
      {
        url: BARE,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/single/${randomId()}` }) }],
      },
    ]);
    const selected = (name: string) =>
      ONLY.length === 0 ||
      ONLY.some((word) => name.startsWith(word) || (word === 'single' && name.startsWith('bare')));
    const results: LoadResult[] = [];
    for (const [name, options] of scenarios) {
      if (!selected(name)) continue;
      await load(name, { ...options, duration: WARMUP });
      const pid = name.startsWith('bare') ? bare.pid : server.pid;
      results.push(await load(name, { ...options, duration: DURATION }, pid));
    }
    console.table(results);
    const rate = (name: string) => results.find((r) => r.name.startsWith(name))?.reqPerSec;
    const single = rate('single');
    const bareSingle = rate('bare');
    if (single && bareSingle) {
      console.log(`single at ${((100 * single) / bareSingle).toFixed(0)}% of the bare route (budget ≥ 25%)`);
    }
    const rssMb = peakRssMb(server.pid!);
    console.log(`server peak RSS: ${rssMb} MB`);
    if (RESULTS_FILE) fs.writeFileSync(RESULTS_FILE, JSON.stringify({ results, rssMb }, null, 2));
  } finally {
    bare?.kill('SIGTERM');
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
