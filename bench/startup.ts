// How long `npm start` takes to answer /healthz after the first build (DESIGN §7: under 3 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PORT = 8181;

async function waitHealthy(deadline: number) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/healthz`);
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/** Starts the app the way `npm start` does and answers the milliseconds until it is healthy. */
async function timeStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  const ok = await waitHealthy(Date.now() + 60_000);
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (!ok) throw new Error('the server did not become healthy within 60 s');
  return ms;
}

export async function benchStartup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-start-'));
  try {
    await timeStart(dataDir); // first start: builds the web app when needed and creates the database
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push(await timeStart(dataDir));
    runs.sort((a, b) => a - b);
    return { firstBuildDone: true, readyMs: Math.round(runs[1]), runsMs: runs.map(Math.round) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchStartup());
}
