/**
 * Near search benchmark: seeds 1,000,000 events with addresses on PostgreSQL (70% around 50
 * cities, 30% anywhere on the sphere; geohashes computed by the same code as a save), then reports
 * p50/p99 server time through app.inject of the first page (12) of `?near=…&radiusKm=…` at several radii,
 * with the plan PostgreSQL chose.
 *
 *   npx tsx bench/places.ts            (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_ITEMS=200000 npx tsx bench/places.ts
 *
 * It works in a fresh database it creates and drops again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { encodeGeohash } from '../src/shared/geo/geohash';
import { nearItemsQuery } from '../src/server/items/repository';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase, rows } from '../src/server/db/migrate';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const CITY_COUNT = 50;

const log = (...args: unknown[]) => console.log(...args);
const ms = (n: number) => `${n.toFixed(2)} ms`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A repeatable pseudo-random sequence (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(12);
const uniformPoint = () => ({
  latitude: (Math.asin(2 * rand() - 1) * 180) / Math.PI,
  longitude: rand() * 360 - 180,
});
const cities = Array.from({ length: CITY_COUNT }, () => {
  const p = uniformPoint();
  return { latitude: p.latitude * 0.8, longitude: p.longitude };
});
/** Within about 30 km of a city (denser near its centre). */
function cityPoint(city: { latitude: number; longitude: number }) {
  const r = 0.3 * rand() * rand();
  const a = rand() * 2 * Math.PI;
  const latitude = Math.max(-90, Math.min(90, city.latitude + r * Math.sin(a)));
  let longitude = city.longitude + (r * Math.cos(a)) / Math.max(0.2, Math.cos((latitude * Math.PI) / 180));
  if (longitude > 180) longitude -= 360;
  if (longitude < -180) longitude += 360;
  return { latitude, longitude };
}

async function main() {
  const dbName = `marquee_bench_places_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 10 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-'));
  let app: FastifyInstance | undefined;
  try {
    await migrateDatabase(database);
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'bench', PUBLIC_URL: 'http://bench.test' }),
      authRateLimit: 1_000_000,
      webDir: path.join(dataDir, 'no-web'),
    };
    app = await buildApp({ config, db: database.db, logger: false });
    await app.ready();
    const call = async (options: InjectOptions, expected = 200) => {
      const res = await app!.inject(options);
      if (res.statusCode !== expected)
        throw new Error(`${options.method} ${options.url}: ${res.statusCode} ${res.body}`);
      return res;
    };
    const signUp = await call(
      {
        method: 'POST',
        url: '/api/v1/auth/sign-up',
        payload: { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' },
      },
      201,
    );
    const { token, user } = signUp.json() as { token: string; user: { id: string } };
    await database.db.execute(sql`update users set email_verified = true where id = ${user.id}`);
    const headers = { authorization: `Bearer ${token}` };
    const ws = (
      await call({ method: 'POST', url: '/api/v1/workspaces', headers, payload: { name: 'Bench' } }, 201)
    ).json();
    await call({
      method: 'PATCH',
      url: `/api/v1/workspaces/${ws.id}`,
      headers,
      payload: { basics: { domains: ['marketing'], stages: ['Live'] } },
    });

    log(`seeding ${ITEM_COUNT.toLocaleString()} events with addresses…`);
    const t0 = performance.now();
    const batch = 50_000;
    for (let from = 0; from < ITEM_COUNT; from += batch) {
      const points = Array.from({ length: Math.min(batch, ITEM_COUNT - from) }, (_, k) => {
        const p = rand() < 0.7 ? cityPoint(cities[Math.floor(rand() * CITY_COUNT)]) : uniformPoint();
        return { i: from + k, lat: p.latitude, lng: p.longitude, gh: encodeGeohash(p.latitude, p.longitude) };
      });
      await database.db.execute(sql`
        insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by)
        select ${ws.id}, 'event', 'ev' || lpad(r.i::text, 8, '0'),
               jsonb_build_object('name', 'Event ' || r.i, 'startTime', '2026-07-01T18:00:00.000Z', 'endTime', '2026-07-01T23:00:00.000Z',
                 'location', jsonb_build_object('city', 'City ' || (r.i % 50), 'latitude', r.lat, 'longitude', r.lng,
                   'geohash', (select jsonb_object_agg('p_' || n, left(r.gh, n)) from generate_series(1, 12) n),
                   'geohashes', (select jsonb_agg(left(r.gh, n) order by n) from generate_series(1, 12) n))),
               '{}'::jsonb, 1, ${user.id}, now() - r.i * interval '3 seconds', now() - r.i * interval '3 seconds', ${user.id}
        from json_to_recordset(${JSON.stringify(points)}::json) as r(i int, lat float8, lng float8, gh text)`);
      if ((from + batch) % 250_000 === 0 || from + batch >= ITEM_COUNT) {
        log(
          `  ${Math.min(ITEM_COUNT, from + batch).toLocaleString()} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
    }
    await database.db.execute(sql`analyze items`);
    const [size] = rows<{ index: string }>(
      await database.db.execute(
        sql`select pg_size_pretty(pg_relation_size('items_place_geohash_idx')) as index`,
      ),
    );
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; geohash index ${size.index}`);

    const base = `/api/v1/workspaces/${ws.id}/items/event`;
    const centre = () => {
      const p = rand() < 0.7 ? cityPoint(cities[Math.floor(rand() * CITY_COUNT)]) : uniformPoint();
      return `${p.latitude.toFixed(5)},${p.longitude.toFixed(5)}`;
    };
    // The plan of one ring (10 km) around a city: index range scans over the covering cells.
    const city = cities[0];
    const statement = nearItemsQuery(database.db, {
      workspaceId: ws.id,
      schemas: ['event'],
      center: city,
      radiusKm: 10,
      limit: 12,
    }).toSQL();
    const explainer = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await explainer.unsafe('set max_parallel_workers_per_gather = 0');
    await explainer.unsafe('set jit = off');
    const plan = await explainer.unsafe(`explain analyze ${statement.sql}`, statement.params as never[]);
    await explainer.end();
    const lines = plan.map((r) => String(r['QUERY PLAN'])).filter((line) => !line.includes('Index Cond'));
    log('\nplan of a 10 km search (index conditions left out):');
    for (const line of lines) log(`  ${line.length > 150 ? `${line.slice(0, 150)}…` : line}`);
    log(
      `\nnear search, first page of 12 (${RUNS} runs per radius after 30 warm-up runs; server time through app.inject)`,
    );
    log('radius'.padEnd(12), 'p50'.padStart(10), 'p99'.padStart(10), '  mean items on the page');
    for (const radiusKm of [1, 5, 10, 50, 200]) {
      for (let i = 0; i < 30; i++)
        await call({ method: 'GET', url: `${base}?near=${centre()}&radiusKm=${radiusKm}&limit=12`, headers });
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < RUNS; i++) {
        const target = `${base}?near=${centre()}&radiusKm=${radiusKm}&limit=12`;
        const s = performance.now();
        const res = await call({ method: 'GET', url: target, headers });
        times.push(performance.now() - s);
        found += (res.json() as { items: unknown[] }).items.length;
      }
      times.sort((a, b) => a - b);
      log(
        `${radiusKm} km`.padEnd(12),
        ms(percentile(times, 50)).padStart(10),
        ms(percentile(times, 99)).padStart(10),
        `  ${(found / RUNS).toFixed(1)}`,
      );
    }
  } finally {
    await app?.close();
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
