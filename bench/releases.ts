/**
 * Releases benchmark: one release of 10,000 approved items across 5 schemas, published in one
 * transaction on PostgreSQL (target: under 5 s), then the delivery API answering its content right
 * after: every item paged through the list route (100 a page), and single items by id.
 *
 *   npm run bench -- releases     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                                  BENCH_RELEASE_ITEMS, default 10,000)
 *
 * Items are seeded with set-based SQL (a fifth of them already published, so the release replaces
 * them); entries are added through the API, 1,000 a request. It works in a fresh database it creates
 * and drops again.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { managerWithLegal, withInProcessApp } from './in-process';

const ITEM_COUNT = Number(process.env.BENCH_RELEASE_ITEMS ?? 10_000);
const SCHEMAS = ['blog-post', 'copy', 'email', 'audience', 'event'];
const ENTRIES_PER_REQUEST = 1000;
const SINGLE_READS = 500;

const log = (...args: unknown[]) => console.log(...args);
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(2)} s`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  await withInProcessApp('rel', { jobs: false, logger: process.env.BENCH_LOG === '1' }, async (bench) => {
    const { database, call } = bench;
    const { user, headers, ws } = await managerWithLegal(
      bench,
      { domains: ['marketing', 'blogging'], stages: ['Live'] },
      SCHEMAS,
    );

    log(`seeding ${ITEM_COUNT.toLocaleString()} approved items across ${SCHEMAS.length} schemas…`);
    let t0 = performance.now();
    const schemaArray = sql.raw(`ARRAY[${SCHEMAS.map((s) => `'${s}'`).join(',')}]`);
    await database.db.execute(sql`
      insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by, has_errors, approved_roles)
      select ${ws.id}, (${schemaArray})[1 + i % ${SCHEMAS.length}], 'item' || lpad(i::text, 6, '0'),
             jsonb_build_object('name', 'Item ' || i, 'slug', 'item-' || i, 'text', 'Text of item ' || i,
               'body', '<p>Body of item ' || i || '</p>'),
             '{}'::jsonb, 2, ${user.id}, now() - i * interval '1 second', now() - i * interval '1 second',
             ${user.id}, false, '{legal}'::text[]
      from generate_series(1, ${ITEM_COUNT}::int) as i`);
    await database.db.execute(sql`
      insert into item_versions (workspace_id, schema, item_id, num, at, by, data, refs)
      select workspace_id, schema, id, n, created_at, created_by, data, refs
      from items, generate_series(1, 2) as n where workspace_id = ${ws.id}`);
    await database.db.execute(sql`
      insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by)
      select workspace_id, schema, id, 'live', 1, 1, data, refs, last_written_at, last_written_by from items
      where workspace_id = ${ws.id} and substr(id, 5)::int % 5 = 0`);
    await database.db.execute(sql`analyze`);
    log(`  seeded in ${seconds(t0)}`);

    const releasesUrl = `/api/v1/workspaces/${ws.id}/releases`;
    const release = (
      await call(
        { method: 'POST', url: releasesUrl, headers, payload: { name: 'Big launch', stage: 'live' } },
        201,
      )
    ).json() as { id: string };
    t0 = performance.now();
    for (let from = 1; from <= ITEM_COUNT; from += ENTRIES_PER_REQUEST) {
      const entries = [];
      for (let i = from; i < from + ENTRIES_PER_REQUEST && i <= ITEM_COUNT; i++) {
        entries.push({ schema: SCHEMAS[i % SCHEMAS.length], itemId: `item${String(i).padStart(6, '0')}` });
      }
      await call({
        method: 'POST',
        url: `${releasesUrl}/${release.id}/entries`,
        headers,
        payload: { entries },
      });
    }
    log(`  ${ITEM_COUNT.toLocaleString()} entries added through the API in ${seconds(t0)}`);

    t0 = performance.now();
    const published = await call({
      method: 'POST',
      url: `${releasesUrl}/${release.id}/publish`,
      headers,
      payload: {},
    });
    const publishMs = performance.now() - t0;
    const state = (published.json() as { state: string }).state;
    log(
      `\npublish of ${ITEM_COUNT.toLocaleString()} entries (POST …/publish, one transaction): ${(publishMs / 1000).toFixed(2)} s (${state})`,
    );

    const key = (
      await call(
        {
          method: 'POST',
          url: `/api/v1/workspaces/${ws.id}/api-keys`,
          headers,
          payload: { name: 'Site', stages: ['live'] },
        },
        201,
      )
    ).json().key as string;
    const auth = { authorization: `Bearer ${key}` };

    // Right after: every item of the release through the list route, 100 a page.
    t0 = performance.now();
    let delivered = 0;
    let pages = 0;
    let firstPageMs = 0;
    for (const schema of SCHEMAS) {
      let cursor: string | null = null;
      do {
        const s = performance.now();
        const target: string = `/delivery/v1/${ws.id}/live/items/${schema}?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const page = (await call({ method: 'GET', url: target, headers: auth })).json() as {
          items: { version: number }[];
          nextCursor: string | null;
        };
        if (pages === 0) firstPageMs = performance.now() - s;
        pages++;
        delivered += page.items.filter((item) => item.version === 2).length;
        cursor = page.nextCursor;
      } while (cursor);
    }
    log(
      `delivery right after: first page ${firstPageMs.toFixed(1)} ms; all ${delivered.toLocaleString()} items at the released version in ${pages} pages of 100: ${seconds(t0)}`,
    );
    const times: number[] = [];
    for (let n = 0; n < SINGLE_READS; n++) {
      const i = 1 + Math.floor(Math.random() * ITEM_COUNT);
      const id = `item${String(i).padStart(6, '0')}`;
      const s = performance.now();
      await call({
        method: 'GET',
        url: `/delivery/v1/${ws.id}/live/items/${SCHEMAS[i % SCHEMAS.length]}/${id}`,
        headers: auth,
      });
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    log(
      `single items by id (${SINGLE_READS}, random, first reads): p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`,
    );
    if (delivered !== ITEM_COUNT) throw new Error(`expected ${ITEM_COUNT} delivered items, got ${delivered}`);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
