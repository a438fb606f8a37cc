/** What the HTTP benches share: waiting for a server, and one autocannon run summarised. */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';

export const CONNECTIONS = 20;

/** Waits until `url` answers below 500 (two minutes at most), failing at once if `child` exits. */
export async function waitFor(url: string, child: ChildProcess, ok = (status: number) => status < 500) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server for ${url} exited`);
    try {
      if (ok((await fetch(url)).status)) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

export interface LoadResult {
  name: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Answers in all, and over how many seconds. */
  requests: number;
  seconds: number;
  /** CPU time (user + system) the server process spent per answer: steadier than req/s on a busy machine. */
  serverCpuUs?: number;
  /** CPU time PostgreSQL's backends (`databasePids`, on this machine) spent per answer. */
  databaseCpuUs?: number;
}

/** A process's resident memory in MB (VmRSS; with `peak`, the highest it reached: VmHWM). */
export function rssMb(pid: number, peak = false) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const pattern = peak ? /VmHWM:\s+(\d+) kB/ : /VmRSS:\s+(\d+) kB/;
  return Number(pattern.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time a process has used, in µs, from Linux's /proc (clock ticks of 10 ms). */
function cpuTimeUs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** CPU time of processes, in µs; one that has ended counts nothing. */
function totalCpuTimeUs(pids: number[]) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuTimeUs(pid);
    } catch {
      // ended
    }
  }
  return total;
}

/**
 * One autocannon run with CONNECTIONS connections (unless options say otherwise): mean req/s, p50 and p99 latency, failures, and with
 * `serverPid` the server's CPU time per answer (with `databasePids`, PostgreSQL's too).
 */
export async function load(
  name: string,
  options: autocannon.Options,
  serverPid?: number,
  databasePids: number[] = [],
): Promise<LoadResult> {
  const cpuBefore = serverPid ? cpuTimeUs(serverPid) : 0;
  const databaseCpuBefore = totalCpuTimeUs(databasePids);
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ ...options, connections: options.connections ?? CONNECTIONS }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
  return {
    name,
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
    seconds: r.duration,
    ...(serverPid && r.requests.total > 0
      ? { serverCpuUs: Math.round((cpuTimeUs(serverPid) - cpuBefore) / r.requests.total) }
      : {}),
    ...(databasePids.length && r.requests.total > 0
      ? {
          databaseCpuUs: Math.round((totalCpuTimeUs(databasePids) - databaseCpuBefore) / r.requests.total),
        }
      : {}),
  };
}
