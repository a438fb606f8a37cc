/**
 * Profile search benchmark (DESIGN §7: p99 < 50 ms at 1,000,000 profiles): seeds one workspace on
 * PostgreSQL with BENCH_PROFILES profiles (id, email, name, city, tier, age; written by one INSERT …
 * SELECT, the search index built after it as a restore would), then times GET …/profiles?search=
 * through the HTTP stack for several kinds of search, BENCH_RUNS each with varied texts, printing p50
 * and p99 per kind and over all.
 *
 *   npx tsx bench/profiles.ts       (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_PROFILES=100000 npx tsx bench/profiles.ts
 *
 * BENCH_KEEP_DB=1 keeps the seeded database; BENCH_REUSE_DB=<name> measures again on it (no seeding).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase, rows } from '../src/server/db/migrate';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const log = (...args: unknown[]) => console.log(...args);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const FIRST = ['maria', 'john', 'aiko', 'lena', 'omar', 'sofia', 'liam', 'chen', 'ines', 'noah'];
const LAST = ['lopez', 'smith', 'tanaka', 'muller', 'haddad', 'rossi', 'brown', 'wang', 'silva', 'berg'];
const CITIES = ['Madrid', 'Leeds', 'Osaka', 'Berlin', 'Cairo', 'Rome', 'Austin', 'Shanghai', 'Porto', 'Oslo'];
const DOMAINS = ['example.com', 'mail.test', 'corp.example', 'inbox.test'];

/** The SQL text of an array literal of strings (constants of this file only). */
const textArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** Profile n (1-based) as the seed writes it, so searches can name real ones. */
const profileOf = (n: number) => {
  const first = FIRST[n % 10];
  const last = LAST[Math.floor(n / 10) % 10];
  return {
    id: `p-${String(n).padStart(9, '0')}`,
    email: `${first}.${last}${n}@${DOMAINS[n % 4]}`,
    first,
    last,
    city: CITIES[Math.floor(n / 100) % 10],
  };
};

async function main() {
  const reuse = process.env.BENCH_REUSE_DB;
  const dbName = reuse ?? `marquee_bench_prof_${Date.now().toString(36)}`;
  const keep = Boolean(reuse || process.env.BENCH_KEEP_DB);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  if (!reuse) await admin.unsafe(`create database "${dbName}"`);
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
    const inject = app.inject.bind(app);
    const call = async (options: InjectOptions, expected = 200) => {
      const res = await inject(options);
      if (res.statusCode !== expected)
        throw new Error(`${options.method} ${options.url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    if (!reuse) await call({ method: 'POST', url: '/api/v1/auth/sign-up', payload: account }, 202);
    const signIn = await call({ method: 'POST', url: '/api/v1/auth/sign-in', payload: account });
    await database.db.execute(sql`update users set email_verified = true where id = ${signIn.user.id}`);
    const headers = { authorization: `Bearer ${signIn.token}` };
    let ws: string;
    if (reuse) {
      ws = rows<{ id: string }>(
        await database.db.execute(sql`select id from workspaces where name = 'Bench'`),
      )[0].id;
    } else {
      ws = (
        await call({ method: 'POST', url: '/api/v1/workspaces', headers, payload: { name: 'Bench' } }, 201)
      ).id;
      const t0 = performance.now();
      // Written as a bulk load is: the search index dropped, the rows inserted, the index built again.
      await database.db.execute(sql.raw(`drop index customer_profiles_search_idx`));
      await database.db.execute(
        sql.raw(`
        insert into customer_profiles (workspace_id, id, attributes, updated_at)
        select '${ws}', 'p-' || lpad(n::text, 9, '0'),
          jsonb_build_object(
            'email', (${textArray(FIRST)})[n % 10 + 1] || '.' || (${textArray(LAST)})[(n / 10) % 10 + 1] || n
              || '@' || (${textArray(DOMAINS)})[n % 4 + 1],
            'firstName', initcap((${textArray(FIRST)})[n % 10 + 1]),
            'lastName', initcap((${textArray(LAST)})[(n / 10) % 10 + 1]),
            'city', (${textArray(CITIES)})[(n / 100) % 10 + 1],
            'tier', (array['gold','silver','bronze'])[n % 3 + 1],
            'age', 18 + n % 60),
          now()
        from generate_series(1, ${PROFILES}) as n`),
      );
      const loaded = performance.now();
      const migration = fs.readFileSync(
        path.resolve('src/server/db/migrations/0021_profiles-consent-suppressions.sql'),
        'utf8',
      );
      const createIndex = migration.slice(migration.indexOf('CREATE INDEX "customer_profiles_search_idx"'));
      await database.db.execute(sql.raw(`set maintenance_work_mem = '256MB'`));
      await database.db.execute(sql.raw(createIndex));
      const indexed = performance.now();
      await database.db.execute(sql`vacuum analyze customer_profiles`);
      log(
        `seeded ${PROFILES.toLocaleString()} profiles: insert ${((loaded - t0) / 1000).toFixed(1)} s, ` +
          `search index ${((indexed - loaded) / 1000).toFixed(1)} s`,
      );
    }
    const [size] = rows<{ size: string }>(
      await database.db.execute(
        sql`select pg_size_pretty(pg_total_relation_size('customer_profiles_p0_lower_idx') * 4) as size`,
      ),
    );
    log(`search index ≈ ${size.size}`);

    let seed = 42;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 1 + (seed % PROFILES);
    };
    const kinds: [string, () => string][] = [
      ['exact id', () => profileOf(pick()).id],
      ['whole email', () => profileOf(pick()).email],
      [
        'email fragment (name + number)',
        () => {
          const p = profileOf(pick());
          return `${p.last}${p.email.match(/\d+/)![0]}`;
        },
      ],
      ['last name + 2 digits (about 1 in 900)', () => `${LAST[pick() % 10]}${10 + (pick() % 90)}`],
      ['common first name (1 in 10)', () => FIRST[pick() % 10]],
      ['common city (1 in 10)', () => CITIES[pick() % 10].toLowerCase()],
      ['email domain (1 in 4)', () => DOMAINS[pick() % 4]],
      ['no match', () => `zq${pick().toString(36)}x`],
      ['id prefix, 2 characters', () => 'p-'],
    ];
    log(`\nGET …/profiles?search= (${RUNS} runs each, ${PROFILES.toLocaleString()} profiles, 24 a page):`);
    const all: number[] = [];
    for (const [name, text] of kinds) {
      const times: number[] = [];
      let found = 0;
      for (let run = 0; run < RUNS; run++) {
        const search = encodeURIComponent(text());
        const t0 = performance.now();
        const page = await call({
          method: 'GET',
          url: `/api/v1/workspaces/${ws}/profiles?search=${search}`,
          headers,
        });
        times.push(performance.now() - t0);
        found += page.profiles.length;
      }
      all.push(...times);
      times.sort((x, y) => x - y);
      log(
        `  ${name.padEnd(38)} found ${(found / RUNS).toFixed(1).padStart(5)} a search  p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms`,
      );
    }
    all.sort((x, y) => x - y);
    log(
      `  ${'all'.padEnd(38)} ${''.padStart(16)}  p50 ${percentile(all, 50).toFixed(1)} ms  p99 ${percentile(all, 99).toFixed(1)} ms`,
    );
  } finally {
    await app?.close();
    await database.close();
    if (keep) log(`kept database ${dbName} (BENCH_REUSE_DB=${dbName} measures again)`);
    else await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
