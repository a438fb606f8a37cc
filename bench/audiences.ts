/**
 * Audiences benchmark (DESIGN §7): seeds one workspace on PostgreSQL with BENCH_PROFILES
 * profiles and BENCH_EVENTS events through the import path (streamed CSV bodies through app.inject),
 * printing the import rates, then imports an export overlapping the events (their last tenth again
 * and as many new ones), checking that only the new ones are stored and the counts stay exact, then
 * times the size of 10 fixed criteria trees (p50/p95 over BENCH_RUNS requests each, server time
 * through app.inject).
 *
 *   npx tsx bench/audiences.ts       (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_PROFILES=100000 BENCH_EVENTS=1000000 npx tsx bench/audiences.ts
 *
 * BENCH_KEEP_DB=1 keeps the seeded database; BENCH_REUSE_DB=<name> measures sizes on it again (no seeding).
 * Run as a superuser it sets max_wal_size to 16 GB for the run and puts it back (BENCH_PG_DEFAULTS=1 does not).
 *
 * Targets: p50 < 1 s and p95 < 2 s per tree at 1,000,000 profiles and 10,000,000 events; imports at
 * ≥ 20,000 profiles/s and ≥ 50,000 events/s. It works in a fresh database it creates and drops again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const DAY = 86_400_000;
const log = (...args: unknown[]) => console.log(...args);

/** CPU seconds spent so far by this machine's PostgreSQL processes (Linux /proc; 0 elsewhere). */
function postgresCpuSeconds() {
  let ticks = 0;
  for (const pid of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * A deterministic pseudo-random sequence (the same data every run): mulberry32, in 32-bit integer
 * arithmetic (a float LCG loses its low bits past 2^53 and cycles after a few thousand values).
 */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function* profileLines() {
  const rand = random(1);
  const tiers = ['gold', 'silver', 'bronze'];
  const tags = ['news', 'sale', 'vip', 'sport'];
  yield 'id,age,tier,vip,tags,renews\n';
  let chunk = '';
  for (let i = 0; i < PROFILES; i++) {
    const tagList = tags.filter(() => rand() < 0.3).join('|');
    const renews = new Date(Date.now() + Math.round((rand() - 0.5) * 120) * DAY).toISOString();
    chunk += `c${i},${18 + Math.floor(rand() * 60)},${tiers[i % 3]},${rand() < 0.1 ? 'yes' : 'no'},${tagList},${renews}\n`;
    if (chunk.length > 64_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

function* eventLines() {
  const rand = random(2);
  const skus = ['A', 'B', 'C', 'D'];
  yield 'profileId,event,at,amount,sku,page\n';
  let chunk = '';
  for (let i = 0; i < EVENTS; i++) {
    const profile = Math.floor(rand() ** 2 * PROFILES);
    const at = new Date(Date.now() - Math.floor(rand() * 365 * DAY)).toISOString();
    chunk +=
      rand() < 0.4
        ? `c${profile},purchase,${at},${Math.floor(rand() * 200)},${skus[i % 4]},\n`
        : `c${profile},visit,${at},,,${rand() < 0.5 ? 'home' : 'pricing'}\n`;
    if (chunk.length > 64_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/**
 * An export overlapping the imported file: its header, its last tenth, and as many new events (each
 * added to `fresh`), interleaved.
 */
async function* overlapLines(file: string, fresh: Set<string>) {
  const rand = random(3);
  const from = EVENTS - Math.floor(EVENTS / 10);
  let row = 0;
  let chunk = '';
  for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) {
    // Row 0 is the header.
    if (row === 0 || row > from) chunk += `${line}\n`;
    if (row++ > from) {
      const profile = Math.floor(rand() ** 2 * PROFILES);
      const at = new Date(Date.now() - Math.floor(rand() * 365 * DAY)).toISOString();
      const added = `c${profile},download,${at},,,`;
      fresh.add(added);
      chunk += `${added}\n`;
    }
    if (chunk.length > 64_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/**
 * PostgreSQL's advice for bulk loads ("Populating a Database": increase max_wal_size): with the default
 * 1 GB, a 10,000,000-event import forces a checkpoint every few seconds, and after each one the first
 * change to every index page is logged whole (measured: 11.3 million full-page images, 70 GB of WAL;
 * 1,000 and 6 GB at 16 GB). Set for the run when the bench's role may (superuser), then put back;
 * BENCH_PG_DEFAULTS=1 measures with the server's own settings.
 */
const BULK_LOAD_MAX_WAL_SIZE = '16GB';

async function raiseMaxWalSize(admin: postgres.Sql): Promise<() => Promise<void>> {
  const [role] = await admin`select rolsuper from pg_roles where rolname = current_user`;
  const [{ max_wal_size: before }] = await admin`show max_wal_size`;
  if (process.env.BENCH_PG_DEFAULTS || !role?.rolsuper) {
    log(`PostgreSQL max_wal_size ${before} (the server's own setting)`);
    return async () => {};
  }
  const [earlier] = await admin`
    select setting from pg_file_settings
    where name = 'max_wal_size' and sourcefile like '%postgresql.auto.conf' and applied`;
  await admin.unsafe(`alter system set max_wal_size = '${BULK_LOAD_MAX_WAL_SIZE}'`);
  await admin`select pg_reload_conf()`;
  log(
    `PostgreSQL max_wal_size ${before} → ${BULK_LOAD_MAX_WAL_SIZE} for this run (BENCH_PG_DEFAULTS=1 keeps it)`,
  );
  return async () => {
    if (earlier) await admin.unsafe(`alter system set max_wal_size = '${String(earlier.setting)}'`);
    else await admin.unsafe('alter system reset max_wal_size');
    await admin`select pg_reload_conf()`;
  };
}

async function main() {
  const reuse = process.env.BENCH_REUSE_DB;
  const dbName = reuse ?? `marquee_bench_aud_${Date.now().toString(36)}`;
  const keep = Boolean(reuse || process.env.BENCH_KEEP_DB);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  if (!reuse) await admin.unsafe(`create database "${dbName}"`);
  const restoreSettings = await raiseMaxWalSize(admin);
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
    const item = async (schema: string, data: object) =>
      (
        await call(
          { method: 'POST', url: `/api/v1/workspaces/${ws}/items/${schema}`, headers, payload: { data } },
          201,
        )
      ).id as string;
    let ws = '';
    ws = reuse ? await benchWorkspace() : await seed();
    const named = Object.fromEntries(
      rows<{ id: string; name: string }>(
        await database.db.execute(
          sql`select id, data->>'name' as name from items where workspace_id = ${ws} order by created_at`,
        ),
      ).map((row) => [row.name, row.id]),
    ) as Record<string, string>;
    const attr = named;
    const { purchase, visit } = named;
    // As autovacuum would after a bulk load: statistics, and the visibility map index-only scans need.
    await database.db.execute(sql`vacuum analyze customer_profiles`);
    await database.db.execute(sql`vacuum analyze customer_events`);
    await database.db.execute(sql`vacuum analyze customer_event_counts`);
    async function benchWorkspace() {
      const [row] = rows<{ id: string }>(
        await database.db.execute(sql`select id from workspaces where name = 'Bench'`),
      );
      return row.id;
    }
    async function seed() {
      ws = (
        await call({ method: 'POST', url: '/api/v1/workspaces', headers, payload: { name: 'Bench' } }, 201)
      ).id;
      await call({
        method: 'PATCH',
        url: `/api/v1/workspaces/${ws}`,
        headers,
        payload: { basics: { domains: ['marketing'] } },
      });
      for (const [key, attributeType, options] of [
        ['age', 'number'],
        ['tier', 'categorical', ['gold', 'silver', 'bronze']],
        ['vip', 'boolean'],
        ['tags', 'array', ['news', 'sale', 'vip', 'sport']],
        ['renews', 'date'],
      ] as const) {
        await item('customer-profile-attribute', {
          name: key,
          key,
          attributeType,
          ...(options ? { options } : {}),
        });
      }
      await item('behavioral-event', {
        name: 'purchase',
        key: 'purchase',
        properties: [
          { name: 'amount', type: 'number' },
          { name: 'sku', type: 'string' },
        ],
      });
      await item('behavioral-event', {
        name: 'visit',
        key: 'visit',
        properties: [{ name: 'page', type: 'string' }],
      });
      // Only the overlapping import has these: the trees below read the same events with it as without.
      await item('behavioral-event', { name: 'download', key: 'download', properties: [] });

      // The file is written before the clock starts, as a customer's export exists before its upload:
      // the import is timed, not this process making up the data (CPU the server would not spend).
      const importStream = async (
        what: string,
        lines: Iterable<string> | AsyncIterable<string>,
        count: number,
        label: string = what,
      ) => {
        const file = path.join(dataDir, `${what}.csv`);
        await pipeline(Readable.from(lines), fs.createWriteStream(file));
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const pgCpu0 = postgresCpuSeconds();
        const { batch } = await call(
          {
            method: 'POST',
            url: `/api/v1/workspaces/${ws}/${what}/import`,
            headers: { ...headers, 'content-type': 'text/csv' },
            payload: fs.createReadStream(file, { highWaterMark: 256 * 1024 }),
          },
          201,
        );
        if (what === 'customer-events') fs.renameSync(file, eventsFile);
        else fs.rmSync(file);
        const seconds = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        log(
          `import ${label}: ${batch.processed.toLocaleString()} rows (${batch.failed} failed) in ${seconds.toFixed(1)} s = ${Math.round(count / seconds).toLocaleString()} rows/s (server process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, PostgreSQL CPU ${(postgresCpuSeconds() - pgCpu0).toFixed(1)} s, load ${os.loadavg()[0].toFixed(1)})`,
        );
      };
      await importStream('profiles', profileLines(), PROFILES);
      const eventsFile = path.join(dataDir, 'events-imported.csv');
      await importStream('customer-events', eventLines(), EVENTS);
      // An overlapping export: the last tenth of the events again, and as many new ones (downloads,
      // which the first import has not), which alone are stored; the counts must stay exact.
      const stored = async () => {
        const [row] = rows<{ events: string | number; mismatches: string | number }>(
          await database.db.execute(sql`
            select (select count(*) from customer_events) as events,
              (select count(*) from customer_event_counts c
               full join (select workspace_id, event, profile_id, count(*) as n from customer_events
                          group by workspace_id, event, profile_id) e
                 on e.workspace_id = c.workspace_id and e.event = c.event and e.profile_id = c.profile_id
               where c.count is distinct from e.n) as mismatches`),
        );
        return { events: Number(row.events), mismatches: Number(row.mismatches) };
      };
      const before = await stored();
      const fresh = new Set<string>();
      const overlap = overlapLines(eventsFile, fresh);
      await importStream('customer-events', overlap, Math.round(EVENTS / 5), 'overlapping customer-events');
      const after = await stored();
      log(
        `  stored events ${before.events.toLocaleString()} → ${after.events.toLocaleString()} (+${(after.events - before.events).toLocaleString()}, new ${fresh.size.toLocaleString()}); counts not equal to the events: ${before.mismatches} before, ${after.mismatches} after`,
      );
      if (after.events - before.events !== fresh.size || after.mismatches)
        throw new Error('the overlapping import doubled or lost events, or the counts are off');
      return ws;
    }
    const a = (key: string, operator: string, value: unknown) => ({
      type: 'attribute',
      predicate: { attribute: { schemaType: 'customer-profile-attribute', id: attr[key], label: key } },
      operator,
      value,
    });
    const e = (id: string, over: object) => ({
      type: 'event',
      event: { schemaType: 'behavioral-event', id, label: id },
      lookBackUnit: 'days',
      lookBackValue: 30,
      aggregator: 'COUNT',
      aggregatorCondition: '>=',
      aggregatorValue: 1,
      ...over,
    });
    const g = (predicate: string, children: unknown[]) => ({ label: '1', predicate, children });
    const buyers = await item('audience', {
      name: 'Buyers',
      criteria: g('and', [e(purchase, { aggregatorValue: 2 })]),
    });
    const vipBuyers = await item('audience', {
      name: 'VIP buyers',
      criteria: g('and', [
        { type: 'audience', predicate: { remote: { schemaType: 'audience', id: buyers } } },
        a('vip', '==', true),
      ]),
    });
    const trees: [string, unknown][] = [
      ['attribute: age >= 40', g('and', [a('age', '>=', 40)])],
      [
        'attribute: tier in [gold, silver] and vip',
        g('and', [a('tier', 'in', ['gold', 'silver']), a('vip', '==', true)]),
      ],
      [
        'attribute: tags overlaps, renews in the next 30 days',
        g('or', [a('tags', 'overlaps', ['vip']), a('renews', 'is in the next', 30)]),
      ],
      ['event: purchase COUNT >= 2 in 30 days', g('and', [e(purchase, { aggregatorValue: 2 })])],
      [
        'event: visit COUNT <= 1 anytime (anti-join)',
        g('and', [e(visit, { lookBackUnit: 'anytime', aggregatorCondition: '<=' })]),
      ],
      [
        'TOTAL amount >= 300 in 90 days where sku in [A, B]',
        g('and', [
          e(purchase, {
            lookBackValue: 90,
            aggregator: 'TOTAL',
            property: 'amount',
            aggregatorValue: 300,
            whereProperty: 'sku',
            whereOperator: 'in',
            whereValue: ['A', 'B'],
          }),
        ]),
      ],
      [
        'visit COUNT >= 3 in 7 days or age < 25',
        g('or', [e(visit, { lookBackValue: 7, aggregatorValue: 3 }), a('age', '<', 25)]),
      ],
      [
        'nested depth 4 with not',
        g('and', [
          a('age', '>=', 30),
          {
            label: '1.2',
            predicate: 'not',
            children: [
              {
                label: '1.2.1',
                predicate: 'or',
                children: [
                  a('tier', '==', 'bronze'),
                  {
                    label: '1.2.1.2',
                    predicate: 'and',
                    children: [e(visit, { lookBackValue: 14 }), a('vip', '==', false)],
                  },
                ],
              },
            ],
          },
        ]),
      ],
      [
        'audience inside audience',
        g('and', [{ type: 'audience', predicate: { remote: { schemaType: 'audience', id: vipBuyers } } }]),
      ],
      [
        'audience or event months',
        g('or', [
          { type: 'audience', predicate: { remote: { schemaType: 'audience', id: buyers } } },
          e(visit, { lookBackUnit: 'months', lookBackValue: 2, aggregatorValue: 5 }),
        ]),
      ],
    ];
    log(
      `\nsizes (${RUNS} runs each, ${PROFILES.toLocaleString()} profiles, ${EVENTS.toLocaleString()} events):`,
    );
    for (const [name, criteria] of trees) {
      const times: number[] = [];
      let size = 0;
      for (let run = 0; run < RUNS; run++) {
        const t0 = performance.now();
        size = (
          await call({
            method: 'POST',
            url: `/api/v1/workspaces/${ws}/audiences/size`,
            headers,
            payload: { criteria },
          })
        ).size;
        times.push(performance.now() - t0);
      }
      times.sort((x, y) => x - y);
      log(
        `  ${name.padEnd(52)} size ${String(size).padStart(8)}  p50 ${percentile(times, 50).toFixed(0)} ms  p95 ${percentile(times, 95).toFixed(0)} ms`,
      );
    }
  } finally {
    await app?.close();
    await database.close();
    if (keep) log(`kept database ${dbName} (BENCH_REUSE_DB=${dbName} measures sizes again)`);
    else await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await restoreSettings();
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
