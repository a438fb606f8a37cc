/**
 * Campaign sends (DESIGN §7): BENCH_PROFILES profiles (default 1,000,000), each with an email, a first
 * name and a tier, of which BENCH_AUDIENCE (default 500,000) are gold; a campaign to the audience
 * `tier == gold` sent by the server in a process of its own (`scripts/start.mjs`, as `npm start` runs
 * it) through SMTP to an `smtp-server` sink in this process that only counts: the envelope recipient of
 * each accepted message, duplicates, bytes. Printed: the snapshot's time (the send's started_at →
 * snapshot_at), messages a minute from the first to the last message the sink accepted, the server's
 * peak RSS (VmRSS sampled every second), the CPU seconds of the server, PostgreSQL and the sink, and
 * the recipients recorded as sent against the messages received.
 *
 *   npm run bench -- campaigns     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_PROFILES=100000 BENCH_AUDIENCE=50000 npm run bench -- campaigns
 *   CAMPAIGN_SMTP_CONNECTIONS=16 CAMPAIGN_CHUNK_SIZE=2000 npm run bench -- campaigns   (the server's own knobs)
 *   BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" …   (node flags for the server)
 *
 * Targets: the snapshot under 10 s, ≥ 50,000 messages a minute, the server's RSS under 300 MB, no
 * message twice. The profiles are written with COPY (the attributes exist as items made through the
 * API); everything else goes through the HTTP API. It works in a fresh database it creates and drops
 * (BENCH_KEEP_DB=1 keeps it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { SMTPServer } from 'smtp-server';
import { rssMb, waitFor } from './load';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000_000);
const AUDIENCE = Math.min(PROFILES, Number(process.env.BENCH_AUDIENCE ?? Math.floor(PROFILES / 2)));
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PORT = 8189;
const BASE = `http://127.0.0.1:${PORT}`;
const FROM = 'news@acme.example';
const log = (...args: unknown[]) => console.log(...args);

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

/** CPU seconds a process has used (Linux /proc; clock ticks of 10 ms). */
function cpuSeconds(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of the PostgreSQL backends serving one database, sampled: each backend's last reading
 * counts (one that ends between two samples loses its last second). Other databases' backends and
 * PostgreSQL's own background processes are left out.
 */
function databaseCpu(db: postgres.Sql, name: string) {
  const last = new Map<number, number>();
  const first = new Map<number, number>();
  return {
    async sample() {
      for (const { pid } of await db`select pid from pg_stat_activity where datname = ${name}`) {
        try {
          const seconds = cpuSeconds(pid);
          if (!first.has(pid)) first.set(pid, seconds);
          last.set(pid, seconds);
        } catch {
          // the backend ended meanwhile
        }
      }
    },
    /** The CPU seconds used since each backend's first sample. */
    get seconds() {
      let sum = 0;
      for (const [pid, seconds] of last) sum += seconds - first.get(pid)!;
      return sum;
    },
  };
}

/**
 * An SMTP server on 127.0.0.1 that accepts everything and only counts: no parsing beyond the
 * envelope, each recipient remembered to find one twice.
 */
async function startSink() {
  const seen = new Set<string>();
  const counts = { messages: 0, duplicates: 0, bytes: 0, first: 0, last: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    onData(stream, session, callback) {
      // Account mail (the sign-up's verification) goes through the same server.
      if (session.envelope.mailFrom && session.envelope.mailFrom.address !== FROM) {
        stream.resume();
        stream.on('end', () => callback());
        return;
      }
      stream.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
      stream.on('end', () => {
        const now = performance.now();
        if (!counts.messages) counts.first = now;
        counts.last = now;
        counts.messages += 1;
        for (const { address } of session.envelope.rcptTo) {
          if (seen.has(address)) counts.duplicates += 1;
          else seen.add(address);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Profile i is gold when it is one of AUDIENCE spread evenly over PROFILES. */
const isGold = (i: number) =>
  Math.floor(((i + 1) * AUDIENCE) / PROFILES) > Math.floor((i * AUDIENCE) / PROFILES);

function* profileRows(ws: string) {
  const names = ['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];
  const others = ['silver', 'bronze'];
  let chunk = '';
  for (let i = 0; i < PROFILES; i++) {
    const tier = isGold(i) ? 'gold' : others[i % 2];
    const attributes = `{"email": "u${i}@example.com", "first-name": "${names[i % 8]}", "tier": "${tier}"}`;
    chunk += `${ws}\tp${i}\t${attributes}\tsubscribed\n`;
    if (chunk.length > 256_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** A newsletter of a few kilobytes: merge tags, six links (tracked), an image. */
function newsletterHtml() {
  const section = (n: number) =>
    `<h2>Story ${n}</h2><p>Autumn brings new colours to the shop, {{first-name|friend}}. ` +
    'Our makers have been busy all summer with wool, linen and oak, and the first pieces are in. '.repeat(3) +
    `<a href="https://shop.example.com/stories/${n}?utm_source=news">Read story ${n}</a></p>`;
  return (
    '<table width="100%"><tr><td><img src="https://cdn.example.com/banner.jpg" alt="Autumn" width="600">' +
    `<h1>Hello {{first-name|friend}}</h1>${[1, 2, 3, 4, 5].map(section).join('')}` +
    '<p><a href="https://shop.example.com/autumn">Shop the collection</a></p></td></tr></table>'
  );
}

async function main() {
  const dbName = `marquee_bench_camp_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-campaigns-'));
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
      JOBS_POLL_MS: '50',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await waitFor(`${BASE}/healthz`, server);
    const pid = server.pid!;
    const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    const { token, user } = await api('POST', '/api/v1/auth/sign-in', account);
    await db`update users set email_verified = true where id = ${user.id}`;
    const workspace = await api('POST', '/api/v1/workspaces', { name: 'Campaigns Bench' }, token);
    const ws = workspace.id as string;
    await api(
      'PATCH',
      `/api/v1/workspaces/${ws}`,
      { basics: { domains: ['marketing'] }, baseVersion: workspace.version },
      token,
    );
    const item = async (schema: string, data: object) =>
      (await api('POST', `/api/v1/workspaces/${ws}/items/${schema}`, { data }, token)).id as string;
    const attributes: Record<string, string> = {};
    for (const [key, attributeType, options] of [
      ['email', 'string'],
      ['first-name', 'string'],
      ['tier', 'categorical', ['gold', 'silver', 'bronze']],
    ] as const) {
      attributes[key] = await item('customer-profile-attribute', {
        name: key,
        key,
        attributeType,
        ...(options ? { options } : {}),
      });
    }

    let t0 = performance.now();
    await pipeline(
      Readable.from(profileRows(ws)),
      await db
        .unsafe('copy customer_profiles (workspace_id, id, attributes, email_consent) from stdin')
        .writable(),
    );
    await db`vacuum analyze customer_profiles`;
    log(
      `seeded ${PROFILES.toLocaleString()} profiles (${AUDIENCE.toLocaleString()} gold) with COPY in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const audience = await item('audience', {
      name: 'Gold',
      criteria: {
        label: '1',
        predicate: 'and',
        children: [
          {
            type: 'attribute',
            predicate: {
              attribute: { schemaType: 'customer-profile-attribute', id: attributes.tier, label: 'tier' },
            },
            operator: '==',
            value: 'gold',
          },
        ],
      },
    });
    const email = await item('email', {
      name: 'Autumn',
      subject: 'Autumn is here',
      preheader: 'New colours for {{first-name|you}}',
      template: { 'gjs-nl-html': newsletterHtml(), 'gjs-nl-css': '' },
    });
    const sender = await api(
      'POST',
      `/api/v1/workspaces/${ws}/senders`,
      { fromName: 'Acme News', fromAddress: FROM, replyTo: 'hello@acme.example' },
      token,
    );
    await api(
      'PUT',
      `/api/v1/workspaces/${ws}/senders/postal-address`,
      { postalAddress: '1 Main St\nSpringfield' },
      token,
    );
    const campaign = await item('campaign', {
      name: 'Autumn launch',
      email: { schemaType: 'email', id: email, label: 'Autumn' },
      audience: { schemaType: 'audience', id: audience, label: 'Gold' },
      sender: sender.id,
      subject: 'Autumn for {{first-name|you}}',
    });

    const rssIdle = rssMb(pid);
    let rssPeak = rssIdle;
    const pgCpu = databaseCpu(db, dbName);
    await pgCpu.sample();
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(pid));
      void pgCpu.sample();
    }, 1000);
    const serverCpu0 = cpuSeconds(pid);
    const sinkCpu0 = process.cpuUsage();
    t0 = performance.now();
    const sendUrl = `/api/v1/workspaces/${ws}/campaigns/${campaign}`;
    const { send } = await api('POST', `${sendUrl}/send`, {}, token);
    let state = send;
    let lastSent = 0;
    // The server's RSS each time another tenth of the recipients is sent.
    const rssByTenth: string[] = [];
    let tenthsSeen = 0;
    let lastAt = performance.now();
    while (!['done', 'cancelled', 'paused'].includes(state.state)) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      state = await api('GET', `${sendUrl}/sends/${send.id}`, undefined, token);
      const tenth = Math.floor((10 * state.counts.sent) / Math.max(1, state.counts.recipients));
      if (tenth > tenthsSeen) {
        tenthsSeen = tenth;
        rssByTenth.push(`${tenth * 10} % ${rssMb(pid).toFixed(0)}`);
      }
      if (state.counts.sent !== lastSent) {
        lastSent = state.counts.sent;
        lastAt = performance.now();
      } else if (performance.now() - lastAt > 120_000) {
        throw new Error(`the send made no progress for two minutes: ${JSON.stringify(state)}`);
      }
    }
    const wall = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssMb(pid));
    const serverCpu = cpuSeconds(pid) - serverCpu0;
    await pgCpu.sample();
    const sinkCpuUsage = process.cpuUsage(sinkCpu0);
    const sinkCpu = (sinkCpuUsage.user + sinkCpuUsage.system) / 1e6;

    const [{ sent, failed, pending }] = await db`
      select count(*) filter (where status = 'sent')::int as sent,
        count(*) filter (where status = 'failed')::int as failed,
        count(*) filter (where status = 'pending')::int as pending
      from campaign_recipients where workspace_id = ${ws} and send_id = ${send.id}`;
    const { counts } = sink;
    const snapshotSeconds = (Date.parse(state.snapshotAt) - Date.parse(state.startedAt)) / 1000;
    const sendingSeconds = (counts.last - counts.first) / 1000;
    const perMinute = counts.messages > 1 ? Math.round(((counts.messages - 1) / sendingSeconds) * 60) : 0;
    const env = (name: string, fallback: string) => process.env[name] ?? `${fallback} (default)`;
    log(
      `send ${state.state} in ${wall.toFixed(1)} s; CAMPAIGN_SMTP_CONNECTIONS ${env('CAMPAIGN_SMTP_CONNECTIONS', '8')}, CAMPAIGN_CHUNK_SIZE ${env('CAMPAIGN_CHUNK_SIZE', '500')}`,
    );
    log(
      `  snapshot: ${state.counts.recipients.toLocaleString()} recipients of an audience of ${state.counts.audience.toLocaleString()} in ${snapshotSeconds.toFixed(2)} s (target < 10 s)`,
    );
    log(
      `  sink: ${counts.messages.toLocaleString()} messages (${(counts.bytes / counts.messages / 1024).toFixed(1)} KB each) in ${sendingSeconds.toFixed(1)} s = ${perMinute.toLocaleString()} a minute (target ≥ 50,000); duplicates ${counts.duplicates}`,
    );
    log(
      `  database: ${sent.toLocaleString()} recipients sent, ${failed} failed, ${pending} pending; the send counts ${state.counts.sent.toLocaleString()} sent`,
    );
    log(
      `  server RSS ${rssIdle.toFixed(0)} MB before the send, peak ${rssPeak.toFixed(0)} MB (target < 300 MB); at ${rssByTenth.join(', ')} MB sent`,
    );
    log(
      `  CPU seconds: server ${serverCpu.toFixed(1)} (${((serverCpu / counts.messages) * 1000).toFixed(2)} ms a message), PostgreSQL ${pgCpu.seconds.toFixed(1)} (this database's backends), sink (this process) ${sinkCpu.toFixed(1)}; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    const problems = [
      counts.duplicates && 'a message was received twice',
      sent !== counts.messages && 'the recipients recorded as sent differ from the messages received',
      counts.messages !== state.counts.recipients && 'not every recipient got the message',
    ].filter(Boolean);
    if (problems.length) throw new Error(problems.join('; '));
  } finally {
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
