/**
 * Events from websites and apps under load (DESIGN §7: `POST /ingest/v1/batch` ≥ 20,000 events a second
 * into PostgreSQL, p99 < 100 ms a batch): batches of 500 track messages (visits and purchases of 100,000
 * profiles, each event with an id of its own) sent with a write key over 2, 4 and 8 connections, as that
 * many senders would. Events a second are the batches a second times 500; every batch's latency counts.
 * At the end the events stored are counted against the events accepted.
 *
 *   npm run bench -- ingest     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                                BENCH_DURATION seconds per run, default 15; BENCH_CONNECTIONS, default 2,4,8;
 *                                BENCH_SERVER_ARGS node flags for the server, e.g. "--cpu-prof")
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import postgres from 'postgres';
import { load, waitFor, type LoadResult } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = 3;
const BATCH = 500;
const PROFILES = 100_000;
const TEMPLATES = 64;
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '2,4,8').split(',').map(Number);
const PORT = 8187;
const BASE = `http://127.0.0.1:${PORT}`;

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Batch bodies made before the clock starts, with `@@` where each request puts a number of its own, so
 * every event id is new (a sender never sends the same event twice here).
 */
function batchTemplates() {
  const pages = ['/', '/pricing', '/docs', '/blog', '/signup'];
  const now = Date.now();
  return Array.from({ length: TEMPLATES }, () =>
    JSON.stringify({
      batch: Array.from({ length: BATCH }, (_, i) => {
        const profileId = `p${Math.floor(Math.random() * PROFILES)}`;
        const at = new Date(now - Math.floor(Math.random() * 30 * 86_400_000)).toISOString();
        return Math.random() < 0.8
          ? {
              type: 'track',
              id: `@@-${i}`,
              profileId,
              event: 'visit',
              at,
              properties: { page: pages[i % 5] },
            }
          : {
              type: 'track',
              id: `@@-${i}`,
              profileId,
              event: 'purchase',
              at,
              properties: { amount: Math.round(Math.random() * 20_000) / 100, sku: `sku-${i % 40}` },
            };
      }),
    }),
  );
}

async function main() {
  const dbName = `marquee_ingest_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-ingest-'));
  const server = spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
      // The bench measures the write path, not the per-key limit.
      INGEST_RATE_LIMIT: '1000000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server);
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const ws = await api('POST', '/api/v1/workspaces', { name: 'Ingest Bench' }, token);
    await api(
      'PATCH',
      `/api/v1/workspaces/${ws.id}`,
      { basics: { domains: ['marketing'] }, baseVersion: ws.version },
      token,
    );
    for (const [key, properties] of [
      ['visit', [{ name: 'page', type: 'string' }]],
      [
        'purchase',
        [
          { name: 'amount', type: 'number' },
          { name: 'sku', type: 'string' },
        ],
      ],
    ] as const) {
      await api(
        'POST',
        `/api/v1/workspaces/${ws.id}/items/behavioral-event`,
        { data: { name: key, key, properties } },
        token,
      );
    }
    const { key } = await api(
      'POST',
      `/api/v1/workspaces/${ws.id}/write-keys`,
      { name: 'Bench', origins: [] },
      token,
    );

    const templates = batchTemplates();
    let sent = 0;
    const batch: autocannon.Request = {
      method: 'POST',
      path: '/ingest/v1/batch',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      setupRequest: (req) => ({ ...req, body: templates[sent % TEMPLATES].replaceAll('@@', String(sent++)) }),
    };
    const results: LoadResult[] = [];
    for (const connections of CONNECTIONS) {
      const name = `batch of ${BATCH}, ${connections} connections`;
      await load(name, { url: BASE, requests: [batch], duration: WARMUP, connections });
      results.push(
        await load(name, { url: BASE, requests: [batch], duration: DURATION, connections }, server.pid),
      );
    }
    console.table(
      results.map((r) => ({
        ...r,
        eventsPerSec: r.reqPerSec * BATCH,
        serverCpuUsPerEvent: r.serverCpuUs === undefined ? undefined : Math.round(r.serverCpuUs / BATCH),
      })),
    );
    // One snapshot: batches still in flight when the runs ended commit before or after all three.
    const [{ events, counted, audits }] = await db`
      select (select count(*)::int from customer_events where workspace_id = ${ws.id}) as events,
             (select coalesce(sum(count), 0)::int from customer_event_counts where workspace_id = ${ws.id}) as counted,
             (select count(*)::int from audit_log where workspace_id = ${ws.id} and action = 'customer-events.ingested') as audits`;
    console.log(
      `stored ${events.toLocaleString()} events (counts sum ${counted.toLocaleString()}) from ${audits.toLocaleString()} accepted batches (${(audits * BATCH).toLocaleString()} events); budget ≥ 20,000 events/s with p99 < 100 ms a batch`,
    );
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
