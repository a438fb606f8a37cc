/**
 * Items benchmark (DESIGN §7): seeds a workspace with 1,000,000 items on PostgreSQL with set-based SQL,
 * then reports p50/p99 server time through app.inject for the first page (12) of a schema list and of
 * each saved view, and saves per second with their history rows.
 *
 *   npx tsx bench/items.ts            (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_ITEMS=200000 npx tsx bench/items.ts
 *
 * It works in a fresh database it creates and drops again.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { rows } from '../src/server/db/migrate';
import { managerWithLegal, withInProcessApp } from './in-process';
import { listItems, saveNextVersion, type ItemFilter } from '../src/server/items/repository';

const ITEM_COUNT = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const SAVES = Number(process.env.BENCH_SAVES ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SCHEMAS = [
  'blog-post',
  'audience',
  'email',
  'copy',
  'event',
  'client-task',
  'customer-profile-attribute',
  'behavioral-event',
];

const log = (...args: unknown[]) => console.log(...args);
const ms = (n: number) => `${n.toFixed(2)} ms`;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const started = performance.now();
  await withInProcessApp('items', {}, async (bench) => {
    const { database, call } = bench;
    const { user, headers, ws } = await managerWithLegal(
      bench,
      { domains: ['marketing', 'assets', 'blogging', 'admin'], stages: ['Live', 'Staging'] },
      ['blog-post', 'email'],
    );

    // 1,000,000 items over 8 schemas, one write every 3 s back to ~35 days ago; 1 in 10 written by the
    // bench user; a third of blog posts and emails approved by Legal; 30% published in Live, of which a
    // sixth is outdated; 5% in Staging. Every item has its first history version.
    log(`seeding ${ITEM_COUNT.toLocaleString()} items…`);
    const t0 = performance.now();
    const schemaArray = sql.raw(`ARRAY[${SCHEMAS.map((s) => `'${s}'`).join(',')}]`);
    const batch = 250_000;
    for (let from = 1; from <= ITEM_COUNT; from += batch) {
      const to = Math.min(ITEM_COUNT, from + batch - 1);
      await database.db.execute(sql`
        insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by, has_errors, approved_roles, search_text)
        select ${ws.id}, (${schemaArray})[1 + i % ${SCHEMAS.length}], 'item' || lpad(i::text, 8, '0'),
               jsonb_build_object('name', 'Item ' || i, 'slug', 'item-' || i, 'body', '<p>Body of item ' || i || '</p>'),
               '{}'::jsonb,
               case when i % 10 < 3 and i % 20 = 0 then 2 else 1 end,
               case when i % 10 = 0 then ${user.id} else 'user-' || (i % 50) end,
               date_trunc('milliseconds', now() - (i * interval '3 seconds')),
               date_trunc('milliseconds', now() - (i * interval '3 seconds')),
               ${user.id}, false,
               case when i % 3 = 0 then '{legal}'::text[] else '{}'::text[] end,
               'Item ' || i || E'\n' || 'Body of item ' || i
        from generate_series(${from}::int, ${to}::int) as i`);
      await database.db.execute(sql`
        insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs)
        select workspace_id, schema, id, 1, created_at, created_by, data, refs from items
        where workspace_id = ${ws.id} and id between 'item' || lpad(${from}::text, 8, '0') and 'item' || lpad(${to}::text, 8, '0')`);
      await database.db.execute(sql`
        insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by)
        select workspace_id, schema, id, 'live', 1, version, data, refs, last_written_at, last_written_by from items
        where workspace_id = ${ws.id} and id between 'item' || lpad(${from}::text, 8, '0') and 'item' || lpad(${to}::text, 8, '0')
          and (substr(id, 5)::int % 10) < 3`);
      await database.db.execute(sql`
        insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by)
        select workspace_id, schema, id, 'staging', version, version, data, refs, last_written_at, last_written_by from items
        where workspace_id = ${ws.id} and id between 'item' || lpad(${from}::text, 8, '0') and 'item' || lpad(${to}::text, 8, '0')
          and (substr(id, 5)::int % 20) = 7`);
      log(`  ${to.toLocaleString()} items (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    await database.db.execute(sql`analyze`);
    const counts = rows<Record<string, number>>(
      await database.db.execute(sql`select
        (select count(*)::int from items) as items, (select count(*)::int from item_versions) as versions,
        (select count(*)::int from published) as published`),
    )[0];
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, counts);

    // Reads: first pages through the whole HTTP stack (auth, membership, query, presentation).
    const base = `/api/v1/workspaces/${ws.id}/items`;
    const cases: [string, string][] = [
      ['schema blog-post, first page', `${base}/blog-post?limit=12`],
      ['schema blog-post, second page', ''],
      ['view all (every schema)', `${base}?view=all&limit=12`],
      ['view last-updated-by-me', `${base}?view=last-updated-by-me&limit=12`],
      ['view need-my-approval', `${base}?view=need-my-approval&limit=12`],
      ['view published-in-live', `${base}?view=published-in&stage=live&limit=12`],
      ['view outdated-in-live', `${base}?view=outdated-in&stage=live&limit=12`],
      ['view aging-in-live', `${base}?view=aging-in&stage=live&limit=12`],
      ['schema email, need-my-approval', `${base}/email?view=need-my-approval&limit=12`],
      ['schema copy, published-in-staging', `${base}/copy?view=published-in-staging&limit=12`],
      ['search blog-post, a common word', `${base}/blog-post?q=body&limit=12`],
      ["search every schema, one item's words", `${base}?q=body%20of%20item%20777777&limit=12`],
      ['search every schema, no match', `${base}?q=no%20such%20words&limit=12`],
      ['single item', `${base}/blog-post/item00000008`],
    ];
    const first = (await call({ method: 'GET', url: cases[0][1], headers })).json();
    cases[1][1] = `${base}/blog-post?limit=12&cursor=${first.nextCursor}`;
    log(`\nreads (${RUNS} runs each after 30 warm-up runs; server time through app.inject)`);
    log('case'.padEnd(38), 'p50'.padStart(10), 'p99'.padStart(10), '  items');
    for (const [name, target] of cases) {
      for (let i = 0; i < 30; i++) await call({ method: 'GET', url: target, headers });
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        const res = await call({ method: 'GET', url: target, headers });
        times.push(performance.now() - s);
        if (i === 0) count = (res.json().items ?? [res.json()]).length;
      }
      times.sort((a, b) => a - b);
      log(
        name.padEnd(38),
        ms(percentile(times, 50)).padStart(10),
        ms(percentile(times, 99)).padStart(10),
        `  ${count}`,
      );
    }

    // Writes: saves of existing items (version + 1, history row, stage copies told) and creates.
    async function measureWrites(
      label: string,
      make: (i: number) => InjectOptions,
      expected: number,
      concurrency = CONCURRENCY,
    ) {
      const latencies: number[] = [];
      let next = 0;
      const s = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < SAVES) {
            const i = next++;
            const t1 = performance.now();
            await call(make(i), expected);
            latencies.push(performance.now() - t1);
          }
        }),
      );
      const seconds = (performance.now() - s) / 1000;
      latencies.sort((a, b) => a - b);
      log(
        label.padEnd(38),
        `${Math.round(SAVES / seconds)}/s`.padStart(10),
        ms(percentile(latencies, 50)).padStart(10),
        ms(percentile(latencies, 99)).padStart(10),
      );
    }
    const data = (i: number) => ({ name: `Saved ${i}`, slug: `saved-${i}`, body: '<p>Saved</p>' });
    const blogPostId = (i: number) =>
      `item${String(8 * ((i * 7919) % Math.floor(ITEM_COUNT / 8)) + 8).padStart(8, '0')}`;
    log(`\nwrites (${SAVES} each, ${CONCURRENCY} concurrent unless said)`);
    log('case'.padEnd(38), 'rate'.padStart(10), 'p50'.padStart(10), 'p99'.padStart(10));
    // One save at a time: the latency of a save itself, without queueing behind others (budget p50 < 5 ms).
    await measureWrites(
      'PUT /fun/items, one at a time',
      (i) => ({
        method: 'PUT',
        url: `/fun/items/blog-post/${blogPostId(i + 3 * SAVES)}?__marquee_workspace=${ws.id}`,
        headers,
        payload: { data: data(i) },
      }),
      200,
      1,
    );
    await measureWrites(
      'PUT /fun/items (save + history)',
      (i) => ({
        method: 'PUT',
        url: `/fun/items/blog-post/${blogPostId(i)}?__marquee_workspace=${ws.id}`,
        headers,
        payload: { data: data(i) },
      }),
      200,
    );
    await measureWrites(
      'PUT /api/v1 item (save, answers item)',
      (i) => ({
        method: 'PUT',
        url: `${base}/blog-post/${blogPostId(i + SAVES)}`,
        headers,
        payload: { data: data(i) },
      }),
      200,
    );
    await measureWrites(
      'POST /fun/items (create + history)',
      (i) => ({
        method: 'POST',
        url: `/fun/items/blog-post?__marquee_workspace=${ws.id}`,
        headers,
        payload: { data: data(i) },
      }),
      201,
    );
    // The same work without HTTP, auth and JSON: the repository queries alone, to judge the indexes
    // apart from the CPU the rest of the request needs.
    const cutoff = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const filters: [string, string[], ItemFilter][] = [
      ['schema blog-post, first page', ['blog-post'], { kind: 'all' }],
      ['view all (every schema)', SCHEMAS, { kind: 'all' }],
      ['view last-updated-by-me', SCHEMAS, { kind: 'written-by', userId: user.id }],
      [
        'view need-my-approval',
        SCHEMAS,
        { kind: 'awaiting', groups: [{ schemas: ['blog-post', 'email'], roleIds: ['legal'] }] },
      ],
      [
        'view published-in-live',
        SCHEMAS,
        { kind: 'stage', stage: 'live', only: 'published', before: cutoff },
      ],
      ['view outdated-in-live', SCHEMAS, { kind: 'stage', stage: 'live', only: 'outdated', before: cutoff }],
      ['view aging-in-live', SCHEMAS, { kind: 'stage', stage: 'live', only: 'aging', before: cutoff }],
    ];
    log(`
repository queries alone (${RUNS} runs each)`);
    log('case'.padEnd(38), 'p50'.padStart(10), 'p99'.padStart(10));
    for (const [name, schemas, filter] of filters) {
      const run = () => listItems(database.db, { workspaceId: ws.id, schemas, filter, limit: 12 });
      for (let i = 0; i < 30; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        await run();
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      log(name.padEnd(38), ms(percentile(times, 50)).padStart(10), ms(percentile(times, 99)).padStart(10));
    }
    {
      const latencies: number[] = [];
      let next = 0;
      const s = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < SAVES) {
            const i = next++;
            const t1 = performance.now();
            await saveNextVersion(
              database.db,
              { workspaceId: ws.id, schema: 'blog-post', id: blogPostId(i + 2 * SAVES) },
              undefined,
              {
                data: data(i),
                refs: {},
                hasErrors: false,
                variation: null,
                searchText: `Item ${i}`,
                modelVersion: 0,
                lastWrittenBy: user.id,
                lastWrittenAt: new Date(),
              },
            );
            latencies.push(performance.now() - t1);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      log(
        'saveNextVersion alone (save + history)'.padEnd(38),
        `${Math.round(SAVES / ((performance.now() - s) / 1000))}/s`.padStart(10),
        ms(percentile(latencies, 50)).padStart(10),
        ms(percentile(latencies, 99)).padStart(10),
      );
    }
    const plan = rows<{ 'QUERY PLAN': string }>(
      await database.db
        .execute(sql`explain analyze select * from items where workspace_id = ${ws.id} and schema = 'blog-post'
        order by last_written_at desc, id desc limit 13`),
    );
    log('\nplan of the schema first page:\n' + plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n'));
    log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
