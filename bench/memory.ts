/**
 * Resident memory of the server as `npm start` runs it (the esbuild bundle), on the embedded PGlite and
 * on PostgreSQL: idle after start, then under load (300 items created, then 10 s of lists with 20
 * connections), its peak, and a minute after the load. Figures are MB of RSS from Linux's /proc.
 *
 *   npx tsx bench/memory.ts     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PORT = 8184;
const BASE = `http://127.0.0.1:${PORT}`;
const ITEMS = 300;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM') {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? 0) / 1024);
}

async function waitHealthy(child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the server exited');
    if (
      await fetch(`${BASE}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await pause(100);
  }
  throw new Error('the server did not become healthy');
}

async function api(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The verification link of the newest mail in the outbox (mail is written just after the answer). */
async function verificationToken(dataDir: string) {
  const outbox = path.join(dataDir, 'outbox');
  for (let i = 0; i < 100; i++) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
      const token = text.match(/verify-email\?token=3D([\w-]+)|verify-email\?token=([\w-]+)/);
      if (token) return token[1] ?? token[2];
    }
    await pause(100);
  }
  throw new Error('no verification mail');
}

async function measure(kind: 'pglite' | 'postgres', databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `marquee-memory-${kind}-`));
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitHealthy(server);
    await pause(3000);
    const idle = rssMb(server.pid!, 'VmRSS');

    const account = { name: 'Memory Bench', email: 'memory@example.test', password: 'correct horse battery' };
    await api('POST', '/api/v1/auth/sign-up', account);
    await api('POST', '/api/v1/auth/verify-email', { token: await verificationToken(dataDir) });
    const { token } = await api('POST', '/api/v1/auth/sign-in', account);
    const ws = await api('POST', '/api/v1/workspaces', { name: 'Memory Bench' }, token);
    await api('PATCH', `/api/v1/workspaces/${ws.id}`, { basics: { domains: ['blogging'] } }, token);
    for (let i = 0; i < ITEMS; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api(
            'POST',
            `/fun/items/blog-post?__marquee_workspace=${ws.id}`,
            { data: { name: `Post ${i + j}`, slug: `post-${i + j}`, body: '<p>Some words.</p>'.repeat(20) } },
            token,
          ),
        ),
      );
    }
    const result = await autocannon({
      url: `${BASE}/api/v1/workspaces/${ws.id}/items/blog-post?limit=50`,
      headers: { authorization: `Bearer ${token}` },
      connections: 20,
      duration: 10,
    });
    const loaded = rssMb(server.pid!, 'VmRSS');
    const peak = rssMb(server.pid!, 'VmHWM');
    // A minute later: the password worker (zxcvbn) has ended, caches have expired.
    await pause(65_000);
    const after = rssMb(server.pid!, 'VmRSS');
    return {
      database: kind,
      idleMb: idle,
      loadedMb: loaded,
      peakMb: peak,
      aMinuteLaterMb: after,
      listReqPerSec: Math.round(result.requests.average),
      non2xx: result.non2xx,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const rows = [await measure('pglite', '')];
  const dbName = `marquee_memory_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${dbName}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    rows.push(await measure('postgres', url.toString()));
  } catch (err) {
    console.log(`PostgreSQL not measured: ${(err as Error).message}`);
  } finally {
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
    await admin.end();
  }
  console.table(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
