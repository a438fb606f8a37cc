/**
 * The delivery API under load (DESIGN §7: single and list ≥ 25% of a bare Fastify route answering the same
 * JSON, in the same run). The real server (`scripts/start.mjs`) on a fresh PostgreSQL database with
 * published blog posts; beside it, in a process of its own, a bare Fastify server answering the very JSON
 * the delivery API answered. autocannon with 20 connections, BENCH_DURATION s (15) after a 3 s warm-up, for
 * delivery list (first page of 12) and single (a random id), the item API's list, and the bare routes.
 *
 *   npx tsx bench/delivery.ts     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *
 * BENCH_SERVER_ARGS passes node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
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
const ITEM_COUNT = Number(process.env.BENCH_DELIVERY_ITEMS ?? 20_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = 3;
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PORT = 8185;
const BARE_PORT = 8186;
const BASE = `http://127.0.0.1:${PORT}`;
const BARE = `http://127.0.0.1:${BARE_PORT}`;

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function main() {
  const dbName = `marquee_delivery_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-delivery-'));
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
    await waitFor(`${BASE}/healthz`, server);
    // Sign-up answers without a session (the address must be verified first): sign in after it.
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const ws = await api('POST', '/api/v1/workspaces', { name: 'Delivery Bench' }, token);

    console.log(`seeding ${ITEM_COUNT.toLocaleString()} published blog posts…`);
    await db`
      insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by)
      select ${ws.id}, 'blog-post', 'item' || lpad(i::text, 8, '0'),
             jsonb_build_object('name', 'Post ' || i, 'slug', 'post-' || i, 'body', '<p>Published post number ' || i || '.</p>', 'author', 'Bench'),
             '{}'::jsonb, 1, ${user.id}, now() - i * interval '1 second', now() - i * interval '1 second', ${user.id}
      from generate_series(1, ${ITEM_COUNT}::int) as i`;
    await db`
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs)
      select workspace_id, schema, id, 1, created_at, created_by, data, refs from items where workspace_id = ${ws.id}`;
    await db`
      insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by)
      select workspace_id, schema, id, 'live', 1, 1, data, refs, last_written_at, created_by from items where workspace_id = ${ws.id}`;
    await db`analyze`;

    const { key } = await api(
      'POST',
      `/api/v1/workspaces/${ws.id}/api-keys`,
      { name: 'Bench', stages: ['live'] },
      token,
    );
    const keyHeaders = { authorization: `Bearer ${key}` };
    const delivery = `/delivery/v1/${ws.id}/live/items/blog-post`;
    const listPath = `${delivery}?limit=12`;
    const sampleId = 'item00000001';
    const listBody = await (await fetch(`${BASE}${listPath}`, { headers: keyHeaders })).text();
    const singleBody = await (await fetch(`${BASE}${delivery}/${sampleId}`, { headers: keyHeaders })).text();
    bare = startBareServer(dataDir, BARE_PORT, { list: listBody, single: singleBody });
    await waitFor(`${BARE}/list`, bare);

    const randomId = () => `item${String(1 + Math.floor(Math.random() * ITEM_COUNT)).padStart(8, '0')}`;
    const sessionHeaders = { authorization: `Bearer ${token}` };
    const scenarios: [string, autocannon.Options][] = [
      ['delivery list (first page of 12)', { url: `${BASE}${listPath}`, headers: keyHeaders }],
      [
        'delivery single (random id)',
        {
          url: BASE,
          headers: keyHeaders,
          requests: [
            { method: 'GET', setupRequest: (req) => ({ ...req, path: `${delivery}/${randomId()}` }) },
          ],
        },
      ],
      [
        'item API list (first page of 12)',
        { url: `${BASE}/api/v1/workspaces/${ws.id}/items/blog-post?limit=12`, headers: sessionHeaders },
      ],
      ['bare Fastify, same list JSON', { url: `${BARE}/list` }],
      [
        'bare Fastify, same single JSON',
        {
          url: BARE,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/single/${randomId()}` }) }],
        },
      ],
    ];
    const results: LoadResult[] = [];
    for (const [name, options] of scenarios) {
      await load(name, { ...options, duration: WARMUP });
      const pid = name.startsWith('bare') ? bare.pid : server.pid;
      results.push(await load(name, { ...options, duration: DURATION }, pid));
    }
    console.table(results);
    const rate = (name: string) => results.find((r) => r.name.startsWith(name))!.reqPerSec;
    const listShare = rate('delivery list') / rate('bare Fastify, same list');
    const singleShare = rate('delivery single') / rate('bare Fastify, same single');
    console.log(
      `delivery list at ${(100 * listShare).toFixed(0)}% and single at ${(100 * singleShare).toFixed(0)}% of the bare route (budget ≥ 25%)`,
    );
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
