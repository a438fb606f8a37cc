/**
 * Live streams (DESIGN §7): two server processes on one PostgreSQL database. Opens 2,000 event streams
 * on process B and reports what they add to its resident memory; then, with the streams open, saves
 * 100 items a second through process A for 20 s and reports how long each change takes to reach a
 * stream on B (from the save's request, so the save itself counts; p50/p95/p99).
 *
 *   npm run bench -- live     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import fs from 'node:fs';
import http from 'node:http';
import {
  callProcess as call,
  createProcessDatabase,
  processUser,
  startServerProcess,
  stopServerProcess,
} from '../tests/helpers/server-process';

// The processes' database is created on this server (tests/helpers/server-process.ts reads TEST_DATABASE_URL).
process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STREAMS = 2_000;
const SAVES_PER_SECOND = 100;
const SECONDS = 20;
const ITEMS = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number) =>
  Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Opens a stream with its own connection; calls `onEvent` with each event's name and data, or (without
 * it) reads and drops what comes after `ready`, as cheaply as a browser tab would cost this process.
 */
function openStream(url: string, token: string, onEvent?: (event: string, data: string) => void) {
  return new Promise<http.ClientRequest>((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = block.match(/^event: (.*)$/m)?.[1];
          const data = block.match(/^data: (.*)$/m)?.[1] ?? '';
          if (event === 'ready') {
            resolve(request);
            if (!onEvent) {
              res.removeAllListeners('data');
              res.resume();
              return;
            }
          }
          if (event) onEvent?.(event, data);
        }
      });
    });
    request.on('error', reject);
  });
}

async function main() {
  const database = await createProcessDatabase();
  const a = await startServerProcess(database.url, { READ_CACHE_TTL_MS: '5000' });
  const b = await startServerProcess(database.url, { READ_CACHE_TTL_MS: '5000' });
  try {
    const user = await processUser(a, 'Bench');
    const ws = (await call(a, 'POST', '/workspaces', user.token, { name: 'Live Bench' })).body.id as string;
    const items: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      const created = await call(a, 'POST', `/workspaces/${ws}/items/blog-post`, user.token, {
        data: { name: `Post ${i}`, slug: `post-${i}`, body: '<p>Hi</p>' },
      });
      items.push(created.body.id as string);
    }
    const live = (tab: string) => `${b.url}/api/v1/workspaces/${ws}/live?tab=${tab}`;
    // Warm B's routes and caches with a few streams opened and closed before the baseline.
    for (let i = 0; i < 20; i++) (await openStream(live(`warm-${i}-tab`), user.token)).destroy();
    await pause(3_000);
    const before = rssMb(b.child.pid!);
    const streams: http.ClientRequest[] = [];
    for (let i = 0; i < STREAMS; i += 100)
      streams.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, STREAMS - i) }, (_, j) =>
            openStream(live(`bench-${i + j}-tab`), user.token),
          ),
        )),
      );
    await pause(5_000);
    const after = rssMb(b.child.pid!);
    console.log(
      `${STREAMS} open streams on one process: RSS ${before.toFixed(0)} MB → ${after.toFixed(0)} MB, +${(after - before).toFixed(0)} MB (budget < 150 MB)`,
    );

    const arrived = new Map<string, number>();
    streams.push(
      await openStream(live('measuring-tab'), user.token, (event, data) => {
        if (event !== 'item') return;
        const { id, version } = JSON.parse(data) as { id: string; version: number };
        arrived.set(`${id}:${version}`, performance.now());
      }),
    );
    const sent: { key: Promise<string | undefined>; at: number }[] = [];
    const total = SAVES_PER_SECOND * SECONDS;
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / SAVES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await pause(wait);
      const id = items[i % ITEMS];
      const at = performance.now();
      const saved = call(a, 'PUT', `/workspaces/${ws}/items/blog-post/${id}`, user.token, {
        data: { name: `Post ${i}`, slug: `post-${i % ITEMS}`, body: `<p>Save ${i}</p>` },
      }).then((res) => (res.status === 200 ? `${id}:${res.body.version as number}` : undefined));
      sent.push({ key: saved, at });
    }
    const keys = await Promise.all(sent.map((s) => s.key));
    const elapsed = (performance.now() - start) / 1000;
    await pause(2_000);
    const latencies: number[] = [];
    let missing = 0;
    keys.forEach((key, i) => {
      const got = key && arrived.get(key);
      if (got) latencies.push(got - sent[i].at);
      else missing++;
    });
    latencies.sort((x, y) => x - y);
    console.log(
      `${keys.filter(Boolean).length} saves on process A in ${elapsed.toFixed(1)} s (${(keys.length / elapsed).toFixed(0)}/s), ${STREAMS} streams open on B;`,
    );
    console.log(
      `save request → event on B's stream: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms; ${missing} not received (budget p95 < 1 s)`,
    );
    console.log(`RSS of B at the end: ${rssMb(b.child.pid!).toFixed(0)} MB`);
    for (const stream of streams) stream.destroy();
  } finally {
    await Promise.all([stopServerProcess(a), stopServerProcess(b)]);
    await database.drop();
  }
}

await main();
