/**
 * Live preview benchmark, in parts (BENCH_PREVIEW_PARTS picks some, comma-separated; default all):
 *
 * - `draft-by-id`: the delivery API answering drafts by id (`?preview=draft` with a preview token) in a
 *   workspace of BENCH_PREVIEW_ITEMS blog posts (default 100,000) on PostgreSQL, each a draft ahead of
 *   its published copy (a fifth never published) and referencing the next two: plain, and with
 *   include=refs. Target: p99 < 20 ms.
 *
 * - `draft-list`: in the same workspace, draft lists of 12 (newest first, and ordered by name), drafts
 *   by slug, and a GraphQL draft list of 12, BENCH_PREVIEW_LIST_READS each (default 200).
 *
 * - `keystroke`: keystroke in the item form to the website's page drawn again, in Chromium, for a page
 *   of 20 blocks and 10 references (bench/preview-keystroke.ts). Target: p95 ≤ 150 ms.
 *
 *   npm run bench -- preview     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                                 BENCH_PREVIEW_ITEMS, default 100,000; BENCH_PREVIEW_READS, default 1,000;
 *                                 BENCH_PREVIEW_LIST_READS, default 200)
 *
 * Items are seeded with set-based SQL; the bench works in a fresh database it creates and drops again.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { managerWithLegal, withInProcessApp, type InProcessBench } from './in-process';
import { printKeystrokeToRender } from './preview-keystroke';

const ITEM_COUNT = Number(process.env.BENCH_PREVIEW_ITEMS ?? 100_000);
const READS = Number(process.env.BENCH_PREVIEW_READS ?? 1000);
const LIST_READS = Number(process.env.BENCH_PREVIEW_LIST_READS ?? 200);
const WARMUP_READS = 50;

const log = (...args: unknown[]) => console.log(...args);
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(2)} s`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const idOf = (i: number) => `post${String(i).padStart(7, '0')}`;

/** What every part gets: the app in this process, a workspace with its seeded posts, a session. */
interface PreviewBench extends InProcessBench {
  ws: string;
  headers: { authorization: string };
  /** A preview token of the whole workspace. */
  token: string;
}

/** `count` timings of `request`, each awaited before the next: p50, p99 and the slowest. */
async function timed(count: number, request: (n: number) => Promise<unknown>) {
  for (let n = 0; n < Math.min(WARMUP_READS, Math.ceil(count / 10)); n++) await request(n);
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const from = performance.now();
    await request(n);
    times.push(performance.now() - from);
  }
  times.sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return `p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, max ${ms(times.at(-1)!)}`;
}

/** Posts as drafts (version 2) referencing the next two, four fifths published at version 1, in SQL. */
async function seedPosts({ database }: InProcessBench, ws: string, userId: string) {
  const ref = (offset: number) => `'post' || lpad(((i + ${offset} - 1) % ${ITEM_COUNT} + 1)::text, 7, '0')`;
  await database.db.execute(
    sql.raw(`
    insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_by)
    select '${ws}', 'blog-post', 'post' || lpad(i::text, 7, '0'),
      jsonb_build_object('name', 'Draft ' || i, 'slug', 'post-' || i, 'author', 'Bench',
        'body', '<p>Draft of post ' || i || '.</p><p>' || repeat('Words worth reading. ', 12) || '</p>'),
      jsonb_build_object(${ref(1)}, jsonb_build_object('schemaType', 'blog-post', 'label', 'Next', 'fieldKey', 'body'),
                         ${ref(2)}, jsonb_build_object('schemaType', 'blog-post', 'label', 'After', 'fieldKey', 'body')),
      2, '${userId}', now() - i * interval '1 second', '${userId}'
    from generate_series(1, ${ITEM_COUNT}::int) as i`),
  );
  await database.db.execute(sql`
    insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
    select workspace_id, schema, id, 'live', 1, 2, data || '{"name": "Published"}'::jsonb, refs, last_written_at,
      last_written_by, data ->> 'slug'
    from items where workspace_id = ${ws} and substr(id, 5)::int % 5 <> 0`);
  await database.db.execute(sql`vacuum (analyze) items`);
  await database.db.execute(sql`vacuum (analyze) published`);
}

/** Drafts by id through the delivery API: random posts, plain and with their references' drafts. */
async function draftById(bench: PreviewBench) {
  const read = async (query: string) => {
    const i = 1 + Math.floor(Math.random() * ITEM_COUNT);
    const res = await bench.call({
      method: 'GET',
      url: `/delivery/v1/${bench.ws}/live/items/blog-post/${idOf(i)}?preview=draft${query}`,
      headers: { authorization: `Bearer ${bench.token}` },
    });
    if (!res.body.includes('"Draft ')) throw new Error(`not a draft: ${res.body.slice(0, 200)}`);
  };
  log(`draft by id (${READS} random reads, one at a time): ${await timed(READS, () => read(''))}`);
  log(`draft by id with include=refs: ${await timed(READS, () => read('&include=refs'))}`);
}

/** Draft lists of 12, drafts by slug and a GraphQL draft list, each answer checked to hold drafts. */
async function draftList(bench: PreviewBench) {
  const read = async (path: string) => {
    const res = await bench.call({
      method: 'GET',
      url: `/delivery/v1/${bench.ws}/live/${path}`,
      headers: { authorization: `Bearer ${bench.token}` },
    });
    if (!res.body.includes('"Draft ')) throw new Error(`not drafts: ${res.body.slice(0, 200)}`);
  };
  const list = (query: string) => () => read(`items/blog-post?preview=draft&limit=12${query}`);
  const reads = `${LIST_READS} reads, one at a time`;
  log(`draft list of 12, newest first (${reads}): ${await timed(LIST_READS, list(''))}`);
  log(`draft list of 12, order=name: ${await timed(LIST_READS, list('&order=name'))}`);
  const slugOf = () => `post-${1 + Math.floor(Math.random() * ITEM_COUNT)}`;
  const bySlug = () => read(`items/blog-post/by-slug/${slugOf()}?preview=draft`);
  log(`draft by slug (random posts): ${await timed(LIST_READS, bySlug)}`);
  const query = encodeURIComponent('{ blogPostList(first: 12) { items { name } } }');
  const graphql = () => read(`graphql?preview=draft&query=${query}`);
  log(`GraphQL draft list of 12: ${await timed(LIST_READS, graphql)}`);
}

/** The parts, in order; a part is a function of the seeded bench. */
const PARTS: Record<string, (bench: PreviewBench) => Promise<void>> = {
  'draft-by-id': draftById,
  'draft-list': draftList,
};
/** Parts with a server process of their own, run after the others. */
const OWN_SERVER_PARTS: Record<string, () => Promise<void>> = { keystroke: printKeystrokeToRender };

async function main() {
  const all = [...Object.keys(PARTS), ...Object.keys(OWN_SERVER_PARTS)];
  const asked = process.env.BENCH_PREVIEW_PARTS?.split(',') ?? all;
  const unknown = asked.filter((name) => !all.includes(name));
  if (unknown.length) throw new Error(`unknown parts: ${unknown.join(', ')} (${all.join(', ')})`);
  if (asked.some((name) => name in PARTS)) await inProcessParts(asked.filter((name) => name in PARTS));
  for (const name of asked) if (name in OWN_SERVER_PARTS) await OWN_SERVER_PARTS[name]();
}

async function inProcessParts(asked: string[]) {
  await withInProcessApp(
    'preview',
    { jobs: false, logger: process.env.BENCH_LOG === '1' },
    async (inProcess) => {
      const { user, headers, ws } = await managerWithLegal(
        inProcess,
        { domains: ['blogging'], stages: ['Live'] },
        [],
      );
      log(`seeding ${ITEM_COUNT.toLocaleString()} blog posts with drafts…`);
      const t0 = performance.now();
      await seedPosts(inProcess, ws.id, user.id);
      log(`  seeded in ${seconds(t0)}`);
      const token = (
        await inProcess.call(
          { method: 'POST', url: `/api/v1/workspaces/${ws.id}/preview-tokens`, headers, payload: {} },
          201,
        )
      ).json().token as string;
      const bench: PreviewBench = { ...inProcess, ws: ws.id, headers, token };
      for (const name of asked) await PARTS[name](bench);
    },
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
