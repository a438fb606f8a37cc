// `npm run bench`: every benchmark in turn, each printing its own figures (DESIGN §7 budgets).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const benches = [
  ['startup', 'bench/startup.ts'],
  ['memory (RSS idle and under load, PGlite and PostgreSQL)', 'bench/memory.ts'],
  ['account answers: registered vs new addresses (timing)', 'bench/auth-timing.ts'],
  ['web bundle', 'bench/bundle.ts'],
  ['items (1,000,000 items on PostgreSQL)', 'bench/items.ts'],
  ['HTTP under load (autocannon, 100,000 items on PostgreSQL)', 'bench/http.ts'],
  ['delivery API beside a bare Fastify route (autocannon, on PostgreSQL)', 'bench/delivery.ts'],
  [
    'GraphQL delivery API beside the REST routes (autocannon, 1,000,000 items on PostgreSQL)',
    'bench/graphql.ts',
  ],
  ['media', 'bench/media.ts'],
  ['near search (1,000,000 events with addresses on PostgreSQL)', 'bench/places.ts'],
  ['audiences (1,000,000 profiles, 10,000,000 events on PostgreSQL)', 'bench/audiences.ts'],
  ['events from websites and apps (POST /ingest/v1/batch on PostgreSQL)', 'bench/ingest.ts'],
  ['profile search (1,000,000 profiles on PostgreSQL)', 'bench/profiles.ts'],
  ['campaign send (500,000 of 1,000,000 profiles to an SMTP sink on PostgreSQL)', 'bench/campaigns.ts'],
  [
    'journeys (1,000 trigger events a second, 1,000,000 profiles waiting, 100,000 waits due at once on PostgreSQL)',
    'bench/journeys.ts',
  ],
  ['dashboard stats (1,000,000 items on PostgreSQL)', 'bench/stats.ts'],
  ['releases (10,000 items across 5 schemas published at once on PostgreSQL)', 'bench/releases.ts'],
  [
    'content model change (1,000,000 items on PostgreSQL, under 20 connections of reads and saves)',
    'bench/model.ts',
  ],
  [
    'live streams (2,000 streams on one process; changes across two processes on PostgreSQL)',
    'bench/live.ts',
  ],
  [
    'live preview (drafts by id, 100,000 items on PostgreSQL; keystroke to page in Chromium)',
    'bench/preview.ts',
  ],
] as const;

/** Run only when named (`npm run bench -- peer`): they install or run other software, or repeat a bench. */
const onRequest = [
  ['Marquee beside Directus (runs directus.sh, then bench/http.ts)', 'bench/peer.ts'],
] as const;

const only = process.argv.slice(2);
let failed = false;
const all = [...benches, ...onRequest];
/** A name that is a bench's file name picks that bench alone (`live` is not also `delivery`). */
const exact = all.filter(([, file]) => only.some((o) => file === `bench/${o}.ts`));
const chosen = !only.length
  ? benches
  : exact.length
    ? exact
    : all.filter(([, file]) => only.some((o) => file.includes(o)));
for (const [name, file] of chosen) {
  if (!fs.existsSync(file)) {
    console.log(`\n## ${name}: ${file} is missing`);
    continue;
  }
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', file], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
