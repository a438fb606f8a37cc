/**
 * Marquee beside its peer, Directus: runs `../shared/peer-bench/directus.sh` (PEER_BENCH_SCRIPT
 * overrides the path; missing, Directus is skipped and said so), then `bench/http.ts` straight after, and
 * prints one table: per scenario both req/s, the ratio and both p50/p99, with single against a bare
 * Fastify route answering the same item JSON in the same run. Goals: ≥ 10× Directus on every scenario,
 * Marquee's p99 below Directus's p50, single ≥ 25% of the bare route.
 *
 *   npm run bench -- peer      (the knobs of http.ts and directus.sh apply: BENCH_DURATION, DURATION, …)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult } from './load';

const SCRIPT = path.resolve(process.env.PEER_BENCH_SCRIPT ?? '../shared/peer-bench/directus.sh');
const GOAL_RATIO = 10;
const GOAL_BARE_SHARE = 0.25;

interface PeerRow {
  scenario: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
}

/** Runs a command with its output shown as it comes; answers stdout and the exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ stdout: string; code: number | null }>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code }));
  });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/**
 * The peer runs on the machine's own Node, as its script expects: npm scripts put this project's
 * `node_modules/.bin` (and its Node) first on PATH, and Directus's native modules, built for the
 * machine's Node when it was installed, do not load in another.
 */
function peerEnv(): NodeJS.ProcessEnv {
  const own = path.resolve('node_modules/.bin');
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => path.resolve(dir) !== own && !dir.endsWith(`${path.sep}node_modules${path.sep}.bin`))
    .join(path.delimiter);
  return { ...process.env, PATH };
}

async function runDirectus(): Promise<PeerRow[] | null> {
  if (!fs.existsSync(SCRIPT)) {
    console.log(`${SCRIPT} is missing: Directus is skipped (set PEER_BENCH_SCRIPT to its path)`);
    return null;
  }
  console.log(`\n### Directus (${SCRIPT}), load average ${loadAverage()}`);
  const { stdout, code } = await run('bash', [SCRIPT], peerEnv());
  const rows = stdout
    .split('\n')
    .filter((line) => line.startsWith('{"scenario"'))
    .map((line) => JSON.parse(line) as PeerRow);
  if (code !== 0 || rows.length === 0) {
    console.log(`directus.sh ended with code ${code} and ${rows.length} results: Directus is left out`);
    return null;
  }
  return rows;
}

async function runMarquee(): Promise<{ results: LoadResult[]; rssMb: number }> {
  console.log(`\n### Marquee (bench/http.ts), load average ${loadAverage()}`);
  const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-peer-')), 'http.json');
  const { code } = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/http.ts'], {
    ...process.env,
    BENCH_RESULTS_FILE: resultsFile,
  });
  if (code !== 0 || !fs.existsSync(resultsFile)) throw new Error(`bench/http.ts failed (code ${code})`);
  const figures = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  fs.rmSync(path.dirname(resultsFile), { recursive: true, force: true });
  return figures;
}

const SCENARIOS = [
  ['list', 'list'],
  ['single', 'single'],
  ['create', 'create'],
] as const;

async function main() {
  const startedAt = new Date().toISOString();
  const peer = await runDirectus();
  const ours = await runMarquee();
  const bare = ours.results.find((r) => r.name.startsWith('bare'));
  const rows = SCENARIOS.map(([peerName, ourName]) => {
    const them = peer?.find((r) => r.scenario === peerName);
    const us = ours.results.find((r) => r.name.startsWith(ourName));
    const ratio = them && us ? us.reqPerSec / them.rps : undefined;
    return {
      scenario: peerName,
      'Directus req/s': them ? Math.round(them.rps) : '—',
      'Marquee req/s': us?.reqPerSec ?? '—',
      ratio: ratio === undefined ? '—' : `${ratio.toFixed(1)}×`,
      'Directus p50/p99 ms': them ? `${them.p50_ms} / ${them.p99_ms}` : '—',
      'Marquee p50/p99 ms': us ? `${us.p50Ms} / ${us.p99Ms}` : '—',
      'Marquee CPU µs/req': us?.serverCpuUs ?? '—',
      'vs bare %':
        peerName === 'single' && us && bare ? `${((100 * us.reqPerSec) / bare.reqPerSec).toFixed(0)}%` : '',
      goals:
        them && us
          ? [
              ratio! >= GOAL_RATIO ? 'ratio ok' : `ratio < ${GOAL_RATIO}×`,
              us.p99Ms < them.p50_ms ? 'p99 ok' : 'p99 ≥ their p50',
              ...(peerName === 'single' && bare
                ? [us.reqPerSec >= GOAL_BARE_SHARE * bare.reqPerSec ? 'bare ok' : 'bare < 25%']
                : []),
            ].join(', ')
          : '',
      'non-2xx (D/M)': `${them?.non2xx ?? '—'} / ${us?.non2xx ?? '—'}`,
    };
  });
  console.log(`\n## Marquee beside Directus (started ${startedAt}, load average now ${loadAverage()})`);
  console.table(rows);
  if (bare)
    console.log(
      `bare Fastify route, same single JSON: ${bare.reqPerSec} req/s, p50/p99 ${bare.p50Ms} / ${bare.p99Ms} ms, CPU ${bare.serverCpuUs ?? '—'} µs/req`,
    );
  console.log(`Marquee server peak RSS: ${ours.rssMb} MB; ${os.cpus().length} CPUs`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
