/**
 * The delivery API under load (DESIGN §7): 1,000,000 published blog posts over 100 workspaces on
 * PostgreSQL; list (first page of 12 of a random workspace) and single (a random item of a random
 * workspace) each beside a bare Fastify route answering the same JSON in its own process (short runs
 * taking turns: BENCH_SLICES, default 5, over BENCH_DURATION seconds a side), the item API's list for
 * scale, and each route's latency on one connection (p99 there is the server's own time). The server's
 * resident memory is sampled every half second throughout (seeding included) and printed as a
 * curve: memory must not grow with the number of published items or workspaces. Beside the server's CPU
 * time per answer, its PostgreSQL backends' when PostgreSQL runs on this machine.
 *
 *   npm run bench -- delivery     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *                                  BENCH_DELIVERY_ITEMS, default 1,000,000; BENCH_DELIVERY_WORKSPACES, 100;
 *                                  BENCH_ROUNDS, default 1: the scenarios in turn that many times)
 *
 * BENCH_SERVER_ARGS passes node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * BENCH_PORT: the server's port (default 8185); the bare route listens on the next one.
 * BENCH_BASELINE: another built Marquee checkout (e.g. main's: `node scripts/start.mjs --build-only` in
 * it): its server runs on BENCH_PORT + 2 against the same seeded database, and each round runs its
 * delivery scenarios beside this one's, taking turns with it and the bare route, so an A/B meets the
 * same machine. Both servers start after the database is migrated (migrating leaves a process larger).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { startBareServer } from './bare-server';
import { load, waitFor, type LoadResult } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITEM_COUNT = Number(process.env.BENCH_DELIVERY_ITEMS ?? 1_000_000);
const WORKSPACES = Number(process.env.BENCH_DELIVERY_WORKSPACES ?? 100);
const PER_WORKSPACE = Math.floor(ITEM_COUNT / WORKSPACES);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = 3;
/** How many times the scenarios run in turn (BENCH_ROUNDS): the shares of each round are printed. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** How many turns each delivery scenario takes with its bare route in a round (BENCH_SLICES). */
const SLICES = Number(process.env.BENCH_SLICES ?? 5);
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PORT = Number(process.env.BENCH_PORT ?? 8185);
const BARE_PORT = PORT + 1;
const BASELINE_DIR = process.env.BENCH_BASELINE;
const BASELINE_PORT = PORT + 2;
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

/** The server's resident memory every half second, with what the bench was doing. */
function sampleMemory(pid: number) {
  const samples: { at: number; phase: string; rssMb: number }[] = [];
  const started = Date.now();
  let phase = 'start';
  const timer = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0);
      samples.push({ at: (Date.now() - started) / 1000, phase, rssMb: Math.round(kb / 1024) });
    } catch {
      // the server has exited
    }
  }, 500);
  return {
    phase: (name: string) => (phase = name),
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

function printCurve(samples: { at: number; phase: string; rssMb: number }[]) {
  const phases = [...new Set(samples.map((s) => s.phase))];
  console.table(
    phases.map((phase) => {
      const of = samples.filter((s) => s.phase === phase).map((s) => s.rssMb);
      return { phase, samples: of.length, minMb: Math.min(...of), maxMb: Math.max(...of), lastMb: of.at(-1) };
    }),
  );
  const every = Math.max(1, Math.floor(samples.length / 40));
  console.log(
    'RSS curve (s:MB): ' +
      samples
        .filter((_, i) => i % every === 0)
        .map((s) => `${s.at.toFixed(0)}:${s.rssMb}`)
        .join(' '),
  );
  console.log(`server peak RSS sampled: ${Math.max(...samples.map((s) => s.rssMb))} MB (budget < 300 MB)`);
}

/** Workspaces with published posts, seeded in SQL a few workspaces at a time (the API would take hours). */
async function seed(db: postgres.Sql, userId: string, workspaceIds: string[]) {
  for (let at = 0; at < workspaceIds.length; at += 10) {
    const batch = workspaceIds.slice(at, at + 10);
    await db.begin(async (tx) => {
      await tx`
        insert into items (workspace_id, schema, id, data, refs, version, last_written_by, last_written_at, created_at, created_by)
        select ws, 'blog-post', 'item' || lpad(i::text, 8, '0'),
               jsonb_build_object('name', 'Post ' || i, 'slug', 'post-' || i, 'author', 'Bench',
                 'body', '<p>Published post number ' || i || ' of a workspace with many.</p><p>' || repeat('Words worth reading. ', 12) || '</p>',
                 '_locales', jsonb_build_object('fr-FR', jsonb_build_object('name', 'Article ' || i, 'slug', 'article-' || i))),
               '{}'::jsonb, 1, ${userId}, now() - i * interval '1 second', now() - i * interval '1 second', ${userId}
        from unnest(${batch}::text[]) as ws, generate_series(1, ${PER_WORKSPACE}::int) as i`;
      await tx`
        insert into published (workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug)
        select workspace_id, schema, id, 'live', 1, 1, data, refs, last_written_at, created_by, data->>'slug'
        from items where workspace_id = any(${batch}::text[])`;
    });
  }
  // A live database's tables have been vacuumed by autovacuum long since: without it, the first reads
  // of freshly written rows pay for setting their hint bits, which no steady-state read does.
  await db`vacuum (analyze) published`;
  await db`analyze`;
}

/** The server's PostgreSQL backends, when PostgreSQL runs on this machine (their CPU time is in /proc). */
async function databaseBackends(db: postgres.Sql, url: URL) {
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) return [];
  const backends = await db<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = current_database() and application_name = 'marquee'`;
  return backends.map((backend) => backend.pid);
}

/** Every workspace has locales; its posts hold fr-FR titles and slugs, so fr-CA reads fall back per field. */
const LOCALES = {
  tags: ['en-US', 'fr-FR', 'fr-CA'],
  default: 'en-US',
  fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'en-US' },
};

const randomOf = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
const randomId = () => `item${String(1 + Math.floor(Math.random() * PER_WORKSPACE)).padStart(8, '0')}`;

/** Each delivery scenario's share of its bare route's rate. */
interface Share {
  list: number;
  single: number;
  localised: number;
}

/** One side of a comparison: what autocannon runs, and the process whose CPU time it costs. */
interface Part {
  name: string;
  options: autocannon.Options;
  pid: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The runs of one side merged: its rate over all of them, CPU per answer over all, median p50, worst p99. */
function merge(name: string, runs: LoadResult[]): LoadResult {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  /** The mean of a per-answer figure over all answers, where every run has it. */
  const weighted = (key: 'serverCpuUs' | 'databaseCpuUs') =>
    runs.every((run) => run[key] !== undefined)
      ? { [key]: Math.round(runs.reduce((sum, run) => sum + run[key]! * run.requests, 0) / requests) }
      : {};
  return {
    name,
    reqPerSec: Math.round(requests / runs.reduce((sum, run) => sum + run.seconds, 0)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    requests,
    seconds: Math.round(runs.reduce((sum, run) => sum + run.seconds, 0) * 100) / 100,
    ...weighted('serverCpuUs'),
    ...weighted('databaseCpuUs'),
  };
}

/**
 * `parts` and `bare` in SLICES short runs each, taking turns (who goes first moves round every turn),
 * after a warm-up of each: every side merged, and each part's share of the bare route's rate, the
 * median over the turns (each turn's rates were measured within seconds of each other).
 */
async function takingTurns(parts: Part[], bare: Part, databasePids: number[]) {
  const sides = [...parts, bare];
  for (const side of sides) await load(side.name, { ...side.options, duration: WARMUP });
  const runs = sides.map((): LoadResult[] => []);
  for (let turn = 0; turn < SLICES; turn++) {
    for (let step = 0; step < sides.length; step++) {
      const at = (turn + step) % sides.length;
      const side = sides[at];
      const pids = side === bare ? [] : databasePids;
      runs[at].push(await load(side.name, { ...side.options, duration: DURATION / SLICES }, side.pid, pids));
    }
  }
  const bareRuns = runs.at(-1)!;
  return {
    merged: sides.map((side, at) => merge(side.name, runs[at])),
    shares: parts.map((_, at) =>
      median(runs[at].map((run, turn) => run.reqPerSec / bareRuns[turn].reqPerSec)),
    ),
  };
}

async function main() {
  const dbName = `marquee_delivery_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-delivery-'));
  const startServer = (port: number, cwd = process.cwd()) =>
    spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
      cwd,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: fs.mkdtempSync(path.join(dataDir, 'server-')),
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '1000000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  let server = startServer(PORT);
  let bare: ChildProcess | undefined;
  let baseline: ChildProcess | undefined;
  const db = postgres(url.toString(), { max: 2, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server);
    if (BASELINE_DIR) {
      // The server that migrated the database holds more memory for a while: both start afresh instead.
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      server = startServer(PORT);
      await waitFor(`${BASE}/healthz`, server);
      // After this one has migrated the database: both would otherwise migrate it at once.
      baseline = startServer(BASELINE_PORT, BASELINE_DIR);
      await waitFor(`http://127.0.0.1:${BASELINE_PORT}/healthz`, baseline);
    }
    const memory = sampleMemory(server.pid!);
    const baselineMemory = baseline && sampleMemory(baseline.pid!);
    // Sign-up answers without a session (the address must be verified first): sign in after it.
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const sites: { ws: string; authorization: string }[] = [];
    for (let n = 0; n < WORKSPACES; n++) {
      const ws = await api('POST', '/api/v1/workspaces', { name: `Delivery Bench ${n + 1}` }, token);
      const { key } = await api(
        'POST',
        `/api/v1/workspaces/${ws.id}/api-keys`,
        { name: 'Bench', stages: ['live'] },
        token,
      );
      await api('PATCH', `/api/v1/workspaces/${ws.id}`, { basics: { locales: LOCALES } }, token);
      sites.push({ ws: ws.id, authorization: `Bearer ${key}` });
    }

    memory.phase('seeding');
    baselineMemory?.phase('seeding');
    const seedStart = Date.now();
    console.log(`seeding ${ITEM_COUNT.toLocaleString()} published blog posts over ${WORKSPACES} workspaces…`);
    await seed(
      db,
      user.id,
      sites.map((site) => site.ws),
    );
    console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);

    memory.phase('load');
    baselineMemory?.phase('load');
    const listPath = (ws: string) => `/delivery/v1/${ws}/live/items/blog-post?limit=12`;
    const singlePath = (ws: string, id: string) => `/delivery/v1/${ws}/live/items/blog-post/${id}`;
    const [first] = sites;
    const headers = { authorization: first.authorization };
    const listBody = await (await fetch(`${BASE}${listPath(first.ws)}`, { headers })).text();
    const singleBody = await (
      await fetch(`${BASE}${singlePath(first.ws, 'item00000001')}`, { headers })
    ).text();
    bare = startBareServer(dataDir, BARE_PORT, { list: listBody, single: singleBody });
    await waitFor(`${BARE}/list`, bare);

    const anyList: autocannon.Request = {
      method: 'GET',
      setupRequest: (req) => {
        const site = randomOf(sites);
        return {
          ...req,
          path: listPath(site.ws),
          headers: { ...req.headers, authorization: site.authorization },
        };
      },
    };
    const anySingle: autocannon.Request = {
      method: 'GET',
      setupRequest: (req) => {
        const site = randomOf(sites);
        const path = singlePath(site.ws, randomId());
        return { ...req, path, headers: { ...req.headers, authorization: site.authorization } };
      },
    };
    const anyLocalised: autocannon.Request = {
      method: 'GET',
      setupRequest: (req) => {
        const site = randomOf(sites);
        const path = `${singlePath(site.ws, randomId())}?locale=fr-CA`;
        return { ...req, path, headers: { ...req.headers, authorization: site.authorization } };
      },
    };
    // Each delivery route in short runs taking turns with the bare route answering its JSON, so that
    // each pair meets the same machine: on a shared one, the rate of either moves by half within a minute.
    const bareList: autocannon.Options = { url: `${BARE}/list` };
    const bareSingle: autocannon.Options = {
      url: BARE,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/single/${randomId()}` }) }],
    };
    const scenarios: {
      name: string;
      key: keyof Share;
      options: autocannon.Options;
      bare: autocannon.Options;
    }[] = [
      {
        name: 'delivery list (first page of 12, random workspace)',
        key: 'list',
        options: { url: BASE, requests: [anyList] },
        bare: bareList,
      },
      {
        name: 'delivery single (random item, random workspace)',
        key: 'single',
        options: { url: BASE, requests: [anySingle] },
        bare: bareSingle,
      },
      {
        name: 'delivery localised single (?locale=fr-CA, falling back per field)',
        key: 'localised',
        options: { url: BASE, requests: [anyLocalised] },
        bare: bareSingle,
      },
    ];
    const itemApiList: [string, autocannon.Options] = [
      'item API list (first page of 12)',
      {
        url: `${BASE}/api/v1/workspaces/${first.ws}/items/blog-post?limit=12`,
        headers: { authorization: `Bearer ${token}` },
      },
    ];
    // BENCH_SCENARIOS=single,list runs only the scenarios whose names hold one of those words.
    const only = process.env.BENCH_SCENARIOS?.split(',');
    const wanted = (name: string) => !only || only.some((word) => name.includes(word));
    const results: LoadResult[] = [];
    const shares: (Share & { server: string })[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const ours: Share = { list: NaN, single: NaN, localised: NaN };
      const theirs: Share = { list: NaN, single: NaN, localised: NaN };
      for (const scenario of scenarios.filter((s) => wanted(s.name))) {
        const label = (name: string) => (ROUNDS > 1 ? `${name} #${round}` : name);
        const parts: Part[] = [
          { name: label(scenario.name), options: scenario.options, pid: server.pid! },
          ...(baseline
            ? [
                {
                  name: label(`baseline ${scenario.name}`),
                  options: { ...scenario.options, url: `http://127.0.0.1:${BASELINE_PORT}` },
                  pid: baseline.pid!,
                },
              ]
            : []),
        ];
        const {
          merged,
          shares: [ourShare, theirShare],
        } = await takingTurns(
          parts,
          {
            name: label(`bare Fastify, same JSON (beside ${scenario.key})`),
            options: scenario.bare,
            pid: bare.pid!,
          },
          await databaseBackends(db, url),
        );
        results.push(...merged);
        ours[scenario.key] = ourShare;
        if (theirShare !== undefined) theirs[scenario.key] = theirShare;
      }
      if (wanted(itemApiList[0])) {
        await load(itemApiList[0], { ...itemApiList[1], duration: WARMUP });
        const name = ROUNDS > 1 ? `${itemApiList[0]} #${round}` : itemApiList[0];
        results.push(await load(name, { ...itemApiList[1], duration: DURATION }, server.pid));
      }
      shares.push({ server: `round ${round}`, ...ours });
      if (baseline) shares.push({ server: `round ${round}, baseline`, ...theirs });
    }
    // One connection: no queueing, so the latency is the server's own time (plus loopback).
    for (const scenario of scenarios.filter((s) => wanted(s.name))) {
      const servers: [string, string][] = [[scenario.name, BASE]];
      if (baseline) servers.push([`baseline ${scenario.name}`, `http://127.0.0.1:${BASELINE_PORT}`]);
      for (const [name, base] of servers) {
        const options = { ...scenario.options, url: base, duration: DURATION / 3, connections: 1 };
        results.push(await load(`${name}, 1 connection`, options));
      }
    }
    console.table(results);
    const percent = (share: number) => `${(100 * share).toFixed(0)}%`;
    shares.forEach((share) =>
      console.log(
        `${ROUNDS > 1 || baseline ? `${share.server}: ` : ''}delivery list at ${percent(share.list)}, single at ${percent(share.single)} and localised single at ${percent(share.localised)} of the bare route, median of ${SLICES} turns (budget ≥ 25%)`,
      ),
    );
    if (baselineMemory) {
      console.log('baseline server:');
      printCurve(baselineMemory.stop());
      console.log('this server:');
    }
    printCurve(memory.stop());
  } finally {
    bare?.kill('SIGTERM');
    if (baseline?.exitCode === null) {
      baseline.kill('SIGTERM');
      await new Promise((r) => baseline!.once('exit', r));
    }
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
