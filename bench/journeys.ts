/**
 * Journeys (DESIGN §7) on PostgreSQL, one server (`scripts/start.mjs`, the job worker on) in a process
 * of its own over BENCH_JOURNEY_PROFILES profiles (default 1,000,000, written with COPY), mailing an
 * `smtp-server` sink in this process that notes when each address got its first message. Four parts:
 *
 * 1. Trigger events: BENCH_JOURNEY_RATE `signup` events a second (default 1,000) for
 *    BENCH_JOURNEY_SECONDS (default 60), each for a profile of its own, through `POST /ingest/v1/batch`
 *    (BENCH_JOURNEY_BATCH events a request, default 10) with a write key, into a journey whose first
 *    step mails. Measured: from the request's answer to the address's first message at the sink
 *    (target p95 < 5 s), and messages received twice (target none).
 * 2. Waiting: every profile enters a journey entered through the API whose first step waits 30 days
 *    (its goal: `purchase`). The first 1,000 enter through `POST …/journeys/{id}/enter`; the rest are
 *    written in bulk by one SQL statement per 100,000 (entering a million through the API takes
 *    minutes), which writes what the engine writes for an entry (the run, its task due in 30 days, the
 *    `journey-entered` event with its identity and its count; no job, as the wait is more than a
 *    minute off), checked against the rows the API entry wrote. Measured: the server's RSS over
 *    BENCH_JOURNEY_IDLE_SECONDS (default 70, so the minute's sweep runs) and a results read, with all
 *    of them waiting (target < 300 MB).
 * 3. Goal: BENCH_JOURNEY_GOALS (default 1,000) of those profiles send a `purchase` through
 *    `POST /ingest/v1/track`, 100 a second. Measured: from the request's answer to the run ended as
 *    converted (target p95 < 5 s).
 * 4. Waking: BENCH_JOURNEY_WAKE (default 100,000) profiles of a third journey (a wait of a day, then
 *    the end), written the same way as entered a day ago, all due at one moment 40 s past a minute.
 *    Measured: from that moment to the last wait done (target ≤ 60 s).
 *
 *   npm run bench -- journeys     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_JOURNEY_PROFILES=100000 BENCH_JOURNEY_RATE=200 BENCH_JOURNEY_SECONDS=15 BENCH_JOURNEY_WAKE=10000 npm run bench -- journeys
 *   BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" …   (node flags for the server)
 *
 * It works in a fresh database it creates and drops (BENCH_KEEP_DB=1 keeps it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { SMTPServer } from 'smtp-server';
import { rssMb, waitFor } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PROFILES = knob('BENCH_JOURNEY_PROFILES', 1_000_000);
const RATE = knob('BENCH_JOURNEY_RATE', 1000);
const SECONDS = knob('BENCH_JOURNEY_SECONDS', 60);
const BATCH = knob('BENCH_JOURNEY_BATCH', 10);
const IDLE_SECONDS = knob('BENCH_JOURNEY_IDLE_SECONDS', 70);
const GOALS = knob('BENCH_JOURNEY_GOALS', 1000);
const GOAL_RATE = 100;
const WAKE = knob('BENCH_JOURNEY_WAKE', 100_000);
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PORT = 8191;
const BASE = `http://127.0.0.1:${PORT}`;
const FROM = 'journeys@acme.example';
const API_ENTERED = 1000;
const SEED_CHUNK = 100_000;
const DRAIN_SECONDS = knob('BENCH_JOURNEY_DRAIN_SECONDS', 300);
/** How long a part waits for its last message or run after the last change it saw. */
const STALL_MS = 120_000;
const DAY = 86_400;

const log = (...args: unknown[]) => console.log(...args);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const profileId = (i: number) => `p${String(i).padStart(7, '0')}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};

/** Seconds, or "none by the end" for a profile never mailed. */
const secondsText = (seconds: number) =>
  Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : 'none by the end';

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** CPU seconds a process has used (Linux /proc, in clock ticks of 10 ms); 0 once it has ended. */
function cpuSeconds(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the server and of the PostgreSQL backends serving its database since `start`,
 * sampled every second (a backend that ends between two samples loses its last second).
 */
function cpuMeter(db: postgres.Sql, dbName: string, serverPid: number) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let server0 = 0;
  const sample = async () => {
    for (const { pid } of await db`select pid from pg_stat_activity where datname = ${dbName}`) {
      const seconds = cpuSeconds(pid);
      if (!seconds) continue;
      if (!first.has(pid)) first.set(pid, seconds);
      last.set(pid, seconds);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    async start() {
      first.clear();
      last.clear();
      server0 = cpuSeconds(serverPid);
      await sample();
      timer = setInterval(() => void sample(), 1000);
    },
    /** Stops sampling; answers the CPU seconds of the server and of PostgreSQL. */
    async stop() {
      clearInterval(timer);
      await sample();
      let database = 0;
      for (const [pid, seconds] of last) database += seconds - first.get(pid)!;
      return { server: cpuSeconds(serverPid) - server0, database };
    },
  };
}

const cpuText = (cpu: { server: number; database: number }, per: number, what: string) =>
  `CPU server ${cpu.server.toFixed(1)} s + PostgreSQL ${cpu.database.toFixed(1)} s = ${(((cpu.server + cpu.database) / per) * 1000).toFixed(2)} ms a ${what}`;

/** The server's RSS sampled every half second: the peak since the last `reset`. */
function rssSampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 500);
  return {
    reset: () => (peak = rssMb(pid)),
    get peak() {
      return Math.max(peak, rssMb(pid));
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * This machine's PostgreSQL runs with autovacuum off, which no live server does: without it the tables
 * the run fills from empty keep the plans made while they held a few rows (a lock of 500 runs read
 * every active run of the workspace). When it is off the bench stands in for its analyses: every
 * autovacuum_naptime, ANALYZE of each table changed past autovacuum's threshold (its settings), while
 * the trigger events fill the journey's tables (the parts after analyze what they seed).
 */
function autovacuumStandIn(url: string) {
  const db = postgres(url, { max: 1, onnotice: () => {} });
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  let stopped = false;
  const analyzeChanged = async () => {
    const tables = await db<{ name: string }[]>`
      select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
      where n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::int
        + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(n_live_tup, 0)`;
    for (const { name } of tables) await db.unsafe(`analyze ${name}`);
  };
  return {
    async start() {
      const [{ on, naptime }] = await db<{ on: boolean; naptime: number }[]>`
        select current_setting('autovacuum') = 'on' as on,
          (select setting::int from pg_settings where name = 'autovacuum_naptime') as naptime`;
      if (on) return 'autovacuum on';
      timer = setInterval(() => (round = round.then(analyzeChanged, analyzeChanged)), naptime * 1000);
      return `autovacuum off: the bench analyzes changed tables every ${naptime} s in its stead`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await round.catch(() => {});
      await db.end({ timeout: 5 });
    },
  };
}

/** An SMTP server that accepts everything from FROM and notes when each recipient's first message came. */
async function startSink() {
  const firstAt = new Map<string, number>();
  const counts = { messages: 0, duplicates: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (session.envelope.mailFrom && session.envelope.mailFrom.address === FROM) {
          const now = Date.now();
          counts.messages += 1;
          for (const { address } of session.envelope.rcptTo) {
            if (firstAt.has(address)) counts.duplicates += 1;
            else firstAt.set(address, now);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    firstAt,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function* profileRows(ws: string) {
  let chunk = '';
  for (let i = 0; i < PROFILES; i++) {
    chunk += `${ws}\t${profileId(i)}\t{"email": "u${i}@example.com", "first-name": "P${i}"}\tsubscribed\n`;
    if (chunk.length > 256_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/**
 * Waits until `done()` reaches `total`, giving up when it stops moving for STALL_MS or after
 * BENCH_JOURNEY_DRAIN_SECONDS (default 300): the figures then count what was done by then.
 */
async function until(what: string, total: number, done: () => Promise<number> | number) {
  const t0 = Date.now();
  let last = -1;
  let lastAt = t0;
  for (;;) {
    const now = await done();
    if (now >= total) return;
    if (now !== last) [last, lastAt] = [now, Date.now()];
    const stalled = Date.now() - lastAt > STALL_MS;
    if (stalled || Date.now() - t0 > DRAIN_SECONDS * 1000) {
      log(
        `  ${what}: ${now.toLocaleString()} of ${total.toLocaleString()} ${stalled ? `and no progress for ${STALL_MS / 1000} s` : `after ${DRAIN_SECONDS} s`}`,
      );
      return;
    }
    await sleep(250);
  }
}

/**
 * Enters the profiles of `where` (a condition on profile `p`, at most `limit` of them) into the
 * version as `enterProfiles` would (repository `enterRuns`, engine `RunWrites`): the run, its first
 * task at `step` entered at `enteredAt` and due `waitSeconds` after, and the `journey-entered` event
 * (identity from its source id `<run>:entered`) with its count. No job: the wait is more than a
 * minute off, so the sweep queues it when it comes near.
 */
async function seedEntries(
  db: postgres.Sql,
  ws: string,
  journey: { id: string; version: number; step: string },
  enteredAt: Date,
  waitSeconds: number,
  where: string,
  limit: number,
) {
  // The anti-join below is planned from the runs' statistics: a journey taken for empty runs 100,000
  // rows ago is joined row by row.
  await db`analyze journey_runs`;
  const [{ entered }] = await db.unsafe(
    `with picked as (
      select p.id as profile_id,
        left(translate(encode(decode(md5(random()::text || p.id), 'hex'), 'base64'), '+/=', 'aZq'), 16) as run_id
      from customer_profiles p
      where p.workspace_id = $1 and ${where}
        and not exists (select 1 from journey_runs r
          where r.workspace_id = p.workspace_id and r.journey_id = $2 and r.profile_id = p.id)
      order by p.id limit $6),
    runs as (
      insert into journey_runs (workspace_id, id, journey_id, version, profile_id, state, entered_at)
      select $1, run_id, $2, $3, profile_id, 'active', $5 from picked
      returning id, profile_id),
    tasks as (
      insert into journey_tasks (workspace_id, run_id, seq, journey_id, version, profile_id, step_id,
        state, due_at, waits_for, entered_at)
      select $1, id, 1, $2, $3, profile_id, $4, 'due', $5::timestamptz + make_interval(secs => $7), null, $5
      from runs),
    events as (
      insert into customer_events (workspace_id, profile_id, event, at, properties, ident)
      select $1, profile_id, 'journey-entered', $5, jsonb_build_object('journey', $2::text, 'version', $3::int),
        hashtextextended($1 || E'\\x1e' || id || ':entered', 0)
      from runs order by profile_id
      returning profile_id),
    counted as (
      insert into customer_event_counts (workspace_id, event, profile_id, count)
      select $1, 'journey-entered', profile_id, 1 from events order by profile_id
      on conflict (workspace_id, event, profile_id) do update set count = customer_event_counts.count + 1)
    select count(*)::int as entered from runs`,
    [ws, journey.id, journey.version, journey.step, enteredAt.toISOString(), limit, waitSeconds],
  );
  return entered as number;
}

/**
 * The shape of a journey's rows for 10,000 runs drawn from the profiles of `where` (everything but
 * ids and times, the times as differences): the same for profiles the API entered and profiles
 * `seedEntries` wrote.
 */
async function rowShapes(db: postgres.Sql, ws: string, journeyId: string, where: string) {
  return db.unsafe(
    `select distinct r.version, r.state, r.exit_step, r.finished_at is null as open,
        t.seq, t.step_id, t.state as task_state, t.waits_for, t.exit, t.ended, t.lease_until, t.done_at,
        t.tries, t.outcome, t.emailed_at, extract(epoch from t.due_at - t.entered_at)::int as wait,
        abs(extract(epoch from t.entered_at - r.entered_at)) < 1 as same_entry,
        e.properties, e.segment, abs(extract(epoch from e.at - r.entered_at)) < 1 as event_at_entry,
        e.ident = hashtextextended(r.workspace_id || E'\\x1e' || r.id || ':entered', 0) as ident,
        c.count = (select count(*) from customer_events o where o.workspace_id = r.workspace_id
          and o.profile_id = r.profile_id and o.event = 'journey-entered') as counted, length(r.id) as id_length, r.id ~ '^[0-9A-Za-z]+$' as id_base62,
        coalesce(j.n, 0) as jobs
      from (select * from journey_runs r where r.workspace_id = $1 and r.journey_id = $2 and ${where}
        order by md5(r.id) limit 10000) r
      join customer_profiles p on p.workspace_id = r.workspace_id and p.id = r.profile_id
      join journey_tasks t on t.workspace_id = r.workspace_id and t.run_id = r.id
      join customer_events e on e.workspace_id = r.workspace_id and e.profile_id = r.profile_id
        and e.event = 'journey-entered' and e.properties->>'journey' = r.journey_id
      join customer_event_counts c on c.workspace_id = r.workspace_id and c.profile_id = r.profile_id
        and c.event = 'journey-entered'
      left join (select singleton_key, count(*) as n from pgboss.job where name = 'journey-task'
        group by singleton_key) j on j.singleton_key = r.workspace_id || '/' || r.id || '/1'`,
    [ws, journeyId],
  );
}

interface Figure {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

async function main() {
  const dbName = `marquee_bench_journeys_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-journeys-'));
  const sink = await startSink();
  const server = spawn(process.execPath, [...SERVER_ARGS, 'scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: path.join(dataDir, 'no-web'),
      DATABASE_URL: url.toString(),
      SMTP_URL: sink.url,
      PUBLIC_URL: 'http://bench.test',
      MARQUEE_SECRET: 'bench',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
      INGEST_RATE_LIMIT: '1000000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const autovacuum = autovacuumStandIn(url.toString());
  const figures: Figure[] = [];
  let rss: ReturnType<typeof rssSampler> | undefined;
  try {
    await waitFor(`${BASE}/healthz`, server);
    log(await autovacuum.start());
    const pid = server.pid!;
    rss = rssSampler(pid);
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const workspace = await api('POST', '/api/v1/workspaces', { name: 'Journeys Bench' }, token);
    const ws = workspace.id as string;
    const wsUrl = `/api/v1/workspaces/${ws}`;
    await api('PATCH', wsUrl, { basics: { domains: ['marketing'] }, baseVersion: workspace.version }, token);
    const item = async (schema: string, data: object) =>
      (await api('POST', `${wsUrl}/items/${schema}`, { data }, token)).id as string;
    for (const key of ['email', 'first-name'])
      await item('customer-profile-attribute', { name: key, key, attributeType: 'string' });
    for (const key of ['signup', 'purchase'])
      await item('behavioral-event', { name: key, key, properties: [{ name: 'plan', type: 'string' }] });
    const email = await item('email', {
      name: 'Welcome',
      subject: 'Welcome',
      template: { 'gjs-nl-html': '<p>Hello {{first-name|friend}}, welcome aboard.</p>', 'gjs-nl-css': '' },
    });
    const sender = await api(
      'POST',
      `${wsUrl}/senders`,
      { fromName: 'Acme', fromAddress: FROM, replyTo: 'hello@acme.example' },
      token,
    );
    await api('PUT', `${wsUrl}/senders/postal-address`, { postalAddress: '1 Main St\nSpringfield' }, token);
    const { key: writeKey } = await api('POST', `${wsUrl}/write-keys`, { name: 'Bench', origins: [] }, token);

    let t0 = Date.now();
    await pipeline(
      Readable.from(profileRows(ws)),
      await db
        .unsafe('copy customer_profiles (workspace_id, id, attributes, email_consent) from stdin')
        .writable(),
    );
    await db`vacuum analyze customer_profiles`;
    log(
      `seeded ${PROFILES.toLocaleString()} profiles with COPY in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const startJourney = async (name: string, definition: object) => {
      const id = await item('journey', { name, definition: JSON.stringify(definition) });
      const { journey } = await api('POST', `${wsUrl}/journeys/${id}/start`, {}, token);
      return { id, version: journey.version as number };
    };

    // 1. Trigger events through the ingestion route, each profile's first mail timed at the sink.
    const welcome = await startJourney('Welcome', {
      entry: { kind: 'event', event: 'signup' },
      reentry: { mode: 'once' },
      start: 'hello',
      steps: [
        { id: 'hello', type: 'email', email, sender: sender.id, subject: 'Welcome {{first-name|you}}' },
        { id: 'later', type: 'wait', seconds: 30 * DAY },
        { id: 'end', type: 'exit' },
      ],
      edges: [
        { from: 'hello', to: 'later' },
        { from: 'later', to: 'end' },
      ],
    });
    const triggers = Math.min(PROFILES, RATE * SECONDS);
    const answeredAt = new Map<string, number>();
    let failedRequests = 0;
    const inFlight = new Set<Promise<void>>();
    const sendBatch = async (from: number, to: number) => {
      const batch = [];
      for (let i = from; i < to; i++)
        batch.push({ type: 'track', id: `signup-${i}`, profileId: profileId(i), event: 'signup' });
      const res = await fetch(`${BASE}/ingest/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${writeKey}` },
        body: JSON.stringify({ batch }),
      });
      await res.text();
      const at = Date.now();
      if (res.status !== 202) failedRequests += 1;
      else for (let i = from; i < to; i++) answeredAt.set(`u${i}@example.com`, at);
    };
    rss.reset();
    const cpu = cpuMeter(db, dbName, pid);
    await cpu.start();
    t0 = Date.now();
    for (let sent = 0; sent < triggers; sent += BATCH) {
      // Each batch leaves at its time on the clock, whatever the answers before it.
      const wait = t0 + (sent / RATE) * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      const request = sendBatch(sent, Math.min(triggers, sent + BATCH)).catch(
        () => void (failedRequests += 1),
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await Promise.all(inFlight);
    const sendSeconds = (Date.now() - t0) / 1000;
    const loadDuringTriggers = loadAverage();
    await until('first emails', answeredAt.size, () => sink.firstAt.size);
    const triggerCpu = await cpu.stop();
    // A profile not mailed by the end counts as later than every one mailed.
    const latencies: number[] = [];
    for (const [address, at] of answeredAt) {
      const first = sink.firstAt.get(address);
      latencies.push(first === undefined ? Infinity : (first - at) / 1000);
    }
    const mailed = latencies.filter(Number.isFinite).length;
    const p95 = percentile(latencies, 95);
    log(
      `1. ${triggers.toLocaleString()} signups in ${sendSeconds.toFixed(1)} s (${Math.round(triggers / sendSeconds).toLocaleString()}/s, ${BATCH} a request, ${failedRequests} requests failed); ` +
        `${mailed.toLocaleString()} first emails; from answer to first email p50 ${secondsText(percentile(latencies, 50))}, p95 ${secondsText(p95)}, max ${secondsText(percentile(latencies, 100))}; ` +
        `duplicates ${sink.counts.duplicates}; server RSS peak ${rss.peak.toFixed(0)} MB; ${cpuText(triggerCpu, mailed, 'mailed event')}; load average ${loadDuringTriggers}`,
    );
    figures.push(
      {
        figure: `${RATE.toLocaleString()} trigger events/s for ${SECONDS} s: answer → first email, p95`,
        measured: `${secondsText(p95)} (${mailed.toLocaleString()} of ${triggers.toLocaleString()} mailed)`,
        target: '< 5 s',
        met: p95 < 5 && mailed === triggers && failedRequests === 0,
      },
      {
        figure: 'emails received twice',
        measured: String(sink.counts.duplicates),
        target: '0',
        met: sink.counts.duplicates === 0,
      },
    );

    // Signups still queued now enter no more, so they do not weigh on the parts after; the parts after
    // analyze the tables they fill themselves, as autovacuum would have by then.
    await api('POST', `${wsUrl}/journeys/${welcome.id}/stop`, {}, token);
    await autovacuum.stop();

    // 2. Every profile waiting 30 days: 1,000 entered through the API, the rest in bulk.
    const hold = await startJourney('Hold', {
      entry: { kind: 'api' },
      reentry: { mode: 'after-exit' },
      goal: { event: 'purchase' },
      start: 'month',
      steps: [
        { id: 'month', type: 'wait', seconds: 30 * DAY },
        { id: 'end', type: 'exit' },
      ],
      edges: [{ from: 'month', to: 'end' }],
    });
    const apiIds = Array.from({ length: Math.min(API_ENTERED, PROFILES) }, (_, i) =>
      profileId(PROFILES - 1 - i),
    );
    const entered = await api('POST', `${wsUrl}/journeys/${hold.id}/enter`, { profileIds: apiIds }, token);
    if (entered.entered !== apiIds.length) throw new Error(`the API entered ${JSON.stringify(entered)}`);
    t0 = Date.now();
    let seeded = 0;
    for (;;) {
      const n = await seedEntries(
        db,
        ws,
        { ...hold, step: 'month' },
        new Date(),
        30 * DAY,
        'true',
        SEED_CHUNK,
      );
      seeded += n;
      if (n < SEED_CHUNK) break;
    }
    await db`vacuum analyze journey_runs, journey_tasks, customer_events, customer_event_counts`;
    const seedSeconds = (Date.now() - t0) / 1000;
    const apiWhere = `r.profile_id >= '${profileId(PROFILES - apiIds.length)}'`;
    const apiShapes = JSON.stringify(await rowShapes(db, ws, hold.id, apiWhere));
    const seededShapes = JSON.stringify(await rowShapes(db, ws, hold.id, `not (${apiWhere})`));
    if (apiShapes !== seededShapes)
      throw new Error(`seeded rows differ from the engine's:\n  API ${apiShapes}\n  seeded ${seededShapes}`);
    log(
      `2. ${seeded.toLocaleString()} entries written in bulk in ${seedSeconds.toFixed(1)} s beside ${apiIds.length.toLocaleString()} through the API; their rows have the same shape: ${apiShapes}`,
    );
    rss.reset();
    const idleStart = rssMb(pid);
    await sleep(IDLE_SECONDS * 1000);
    t0 = Date.now();
    const results = await api('GET', `${wsUrl}/journeys/${hold.id}/results`, undefined, token);
    const resultsMs = Date.now() - t0;
    const waiting = results.versions[0].steps.find((s: { stepId: string }) => s.stepId === 'month').waiting;
    const waitingPeak = rss.peak;
    log(
      `   ${waiting.toLocaleString()} waiting in the 30-day step (${(waiting + triggers).toLocaleString()} waits in all); server RSS ${idleStart.toFixed(0)} MB at the start, peak ${waitingPeak.toFixed(0)} MB over ${IDLE_SECONDS} s and a results read (${resultsMs} ms); load average ${loadAverage()}`,
    );
    figures.push({
      figure: `${waiting.toLocaleString()} profiles waiting in a delay step: server RSS peak`,
      measured: `${waitingPeak.toFixed(0)} MB`,
      target: '< 300 MB',
      met: waitingPeak < 300 && waiting === PROFILES,
    });

    // 3. Goal events end runs that wait.
    const goalIds = Array.from({ length: Math.min(GOALS, PROFILES) }, (_, i) =>
      profileId(Math.floor((i * PROFILES) / GOALS)),
    );
    const goalAnswered = new Map<string, number>();
    t0 = Date.now();
    const goalRequests: Promise<void>[] = [];
    for (let i = 0; i < goalIds.length; i++) {
      const wait = t0 + (i / GOAL_RATE) * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      const id = goalIds[i];
      goalRequests.push(
        fetch(`${BASE}/ingest/v1/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${writeKey}` },
          body: JSON.stringify({ profileId: id, event: 'purchase', id: `purchase-${id}` }),
        }).then(async (res) => {
          await res.text();
          if (res.status === 202) goalAnswered.set(id, Date.now());
        }),
      );
    }
    await Promise.all(goalRequests);
    const converted = async () =>
      db`select profile_id, finished_at from journey_runs
         where workspace_id = ${ws} and journey_id = ${hold.id} and state = 'converted'`;
    await until('goals', goalAnswered.size, async () => (await converted()).length);
    const goalLatencies = (await converted()).map(
      (row) => (new Date(row.finished_at).getTime() - goalAnswered.get(row.profile_id)!) / 1000,
    );
    const goalP95 = percentile(goalLatencies, 95);
    log(
      `3. ${goalAnswered.size.toLocaleString()} goal events at ${GOAL_RATE}/s: ${goalLatencies.length.toLocaleString()} runs converted; from answer to run ended p50 ${percentile(goalLatencies, 50).toFixed(2)} s, p95 ${goalP95.toFixed(2)} s, max ${percentile(goalLatencies, 100).toFixed(2)} s; load average ${loadAverage()}`,
    );
    figures.push({
      figure: 'goal event → waiting profile removed, p95',
      measured: `${goalP95.toFixed(2)} s (${goalLatencies.length.toLocaleString()} of ${goalIds.length.toLocaleString()})`,
      target: '< 5 s',
      met: goalP95 < 5 && goalLatencies.length === goalIds.length,
    });

    // 4. Waits of a day falling due at one moment.
    const soon = await startJourney('Tomorrow', {
      entry: { kind: 'api' },
      reentry: { mode: 'after-exit' },
      start: 'day',
      steps: [
        { id: 'day', type: 'wait', seconds: DAY },
        { id: 'end', type: 'exit' },
      ],
      edges: [{ from: 'day', to: 'end' }],
    });
    // 40 s past a minute at least 30 s off: the sweep of that minute, a minute ahead, sees them.
    const minute = Math.ceil((Date.now() + 30_000) / 60_000) * 60_000;
    const dueAt = new Date(minute + 40_000);
    const wakeCount = Math.min(WAKE, PROFILES);
    t0 = Date.now();
    const wakeSeeded = await seedEntries(
      db,
      ws,
      { ...soon, step: 'day' },
      new Date(dueAt.getTime() - DAY * 1000),
      DAY,
      'true',
      wakeCount,
    );
    await db`vacuum analyze journey_runs, journey_tasks`;
    log(
      `4. ${wakeSeeded.toLocaleString()} waits of a day written in ${((Date.now() - t0) / 1000).toFixed(1)} s, all due at ${dueAt.toISOString()}`,
    );
    await sleep(Math.max(0, dueAt.getTime() - Date.now()));
    rss.reset();
    await cpu.start();
    const woken = async () =>
      (
        await db`select count(*)::int as n from journey_tasks
          where workspace_id = ${ws} and journey_id = ${soon.id} and seq = 1 and state = 'done'`
      )[0].n as number;
    let loadDuringWake = loadAverage();
    const progress = setInterval(() => (loadDuringWake = loadAverage()), 10_000);
    await until('woken', wakeSeeded, woken);
    clearInterval(progress);
    const wakeCpu = await cpu.stop();
    const [late] = await db`
      select percentile_cont(0.95) within group (order by extract(epoch from done_at - due_at)) as p95,
        max(extract(epoch from done_at - due_at)) as max, count(*)::int as n,
        count(*) filter (where done_at <= due_at + interval '60 seconds')::int as in_time
      from journey_tasks where workspace_id = ${ws} and journey_id = ${soon.id} and seq = 1 and state = 'done'`;
    const lastWoken = late.n === wakeSeeded ? `${Number(late.max).toFixed(1)} s` : 'not all';
    log(
      `   ${late.n.toLocaleString()} woken, ${late.in_time.toLocaleString()} within 60 s of their time; the last woken ${Number(late.max).toFixed(1)} s after it (p95 ${Number(late.p95).toFixed(1)} s); server RSS peak ${rss.peak.toFixed(0)} MB; ${cpuText(wakeCpu, late.n, 'woken wait')}; load average ${loadDuringWake}`,
    );
    figures.push({
      figure: `${wakeSeeded.toLocaleString()} waits due at once: all woken`,
      measured: `${lastWoken} (${late.in_time.toLocaleString()} within 60 s)`,
      target: '≤ 60 s',
      met: late.in_time === wakeSeeded,
    });

    log(`\njourneys on PostgreSQL, ${os.cpus().length} cores, load average ${loadAverage()}`);
    console.table(figures.map(({ met, ...f }) => ({ ...f, met: met ? 'yes' : 'NO' })));
  } finally {
    rss?.stop();
    await autovacuum.stop();
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await sink.close();
    await db.end();
    if (process.env.BENCH_KEEP_DB) log(`kept database ${dbName}`);
    else await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
