/**
 * Dashboard benchmark: `GET /api/v1/workspaces/{ws}/stats` over a workspace of 1,000,000 items
 * on PostgreSQL, through a real HTTP server on port BENCH_STATS_PORT (8193, used by no other bench).
 * Items, their first versions, stage copies and approvals are seeded with generate_series in a fresh
 * database that is dropped again; then p50/p99 of the whole request (auth, membership, every aggregate).
 *
 *   npx tsx bench/stats.ts     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_ITEMS=200000 BENCH_RUNS=100 npx tsx bench/stats.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase, rows } from '../src/server/db/migrate';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const PORT = Number(process.env.BENCH_STATS_PORT ?? 8193);
const SCHEMAS = ['blog-post', 'audience', 'email', 'copy', 'event', 'client-task'];

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const dbName = `marquee_bench_stats_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 10 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-stats-'));
  const base = `http://127.0.0.1:${PORT}`;
  const app = await buildApp({
    config: {
      ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'bench', PUBLIC_URL: base }),
      webDir: path.join(dataDir, 'no-web'),
    },
    db: database.db,
    logger: false,
  });
  try {
    await migrateDatabase(database);
    await app.listen({ port: PORT, host: '127.0.0.1' });
    const api = async (method: string, route: string, body?: unknown, token?: string) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
      return res.json();
    };

    const account = { name: 'Bench Lead', email: 'lead@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await database.db.execute(sql`update users set email_verified = true where id = ${user.id}`);
    const ws = await api('POST', '/api/v1/workspaces', { name: 'Stats bench' }, token);
    await api(
      'PATCH',
      `/api/v1/workspaces/${ws.id}`,
      {
        basics: { domains: ['marketing', 'assets', 'blogging', 'admin'], stages: ['Live', 'Staging'] },
        roles: {
          ...ws.roles,
          legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['blog-post', 'email'] },
        },
      },
      token,
    );
    await api(
      'PATCH',
      `/api/v1/workspaces/${ws.id}/members/${user.id}`,
      { roles: ['admin', 'legal'] },
      token,
    );

    // One write every 3 s back over ~35 days, by 50 writers; a third approved by Legal; 30% live (a sixth
    // of those outdated), 5% in staging; every item with its first version.
    console.log(`seeding ${ITEM_COUNT.toLocaleString()} items…`);
    const t0 = performance.now();
    const schemaArray = sql.raw(`array[${SCHEMAS.map((s) => `'${s}'`).join(',')}]`);
    await database.db.execute(sql`
      insert into items (workspace_id, schema, id, data, version, last_written_by, last_written_at, created_at, created_by, approved_roles)
      select ${ws.id}, (${schemaArray})[1 + i % ${SCHEMAS.length}], 'item' || lpad(i::text, 8, '0'),
             jsonb_build_object('name', 'Item ' || i), case when i % 60 = 0 then 2 else 1 end,
             'user-' || (i % 50), now() - i * interval '3 seconds', now() - i * interval '3 seconds',
             'user-' || (i % 50), case when i % 3 = 0 then '{legal}'::text[] else '{}'::text[] end
      from generate_series(1, ${ITEM_COUNT}::int) as i`);
    await database.db.execute(sql`
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs)
      select workspace_id, schema, id, 1, created_at, created_by, data, refs from items where workspace_id = ${ws.id}`);
    await database.db.execute(sql`
      insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by)
      select workspace_id, schema, id, s.stage, 1, version, data, refs, last_written_at, last_written_by
      from items, (values ('live', 10, 3), ('staging', 20, 1)) as s(stage, modulus, below)
      where workspace_id = ${ws.id} and substr(id, 5)::int % s.modulus < s.below`);
    await database.db.execute(sql`vacuum analyze`);
    const counts = rows<Record<string, number>>(
      await database.db.execute(sql`select (select count(*)::int from items) as items,
        (select count(*)::int from item_versions) as versions, (select count(*)::int from published) as published`),
    )[0];
    console.log(`seeded in ${seconds(t0)}:`, counts);

    const route = `/api/v1/workspaces/${ws.id}/stats`;
    for (let i = 0; i < 10; i++) await api('GET', route, undefined, token);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      await api('GET', route, undefined, token);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const [load1] = os.loadavg();
    console.log(
      `GET ${route.replace(ws.id, '{ws}')} over HTTP, ${RUNS} runs after 10 warm-up runs: ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms ` +
        `(load average ${load1.toFixed(1)} on ${os.cpus().length} cores)`,
    );
  } finally {
    await app.close();
    await database.close();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
