import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { randomId } from '@server/lib/ids';
import { readOutbox, tokenOf } from './outbox';

/** Real server processes (`src/server/main.ts`, as `npm start` runs it) for tests across processes. */

export const PROCESS_PUBLIC_URL = 'http://marquee.test';
export const PROCESS_PASSWORD = 'correct horse battery';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until `check` answers something (the processes start and work on their own time). */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: string[];
}

export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-process-'));
  const output: string[] = [];
  // One process (tsx as a loader, not its CLI, which would run the server in a child): SIGKILL reaches it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: PROCESS_PUBLIC_URL,
      MARQUEE_SECRET: 'two-process-test',
      AUTH_RATE_LIMIT: '10000',
      LOG_LEVEL: 'warn',
      WEB_DIR: path.join(dataDir, 'no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await eventually(`the server on ${port} (${output.join('')})`, async () => {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    return (await fetch(`${url}/healthz`)).ok || undefined;
  });
  return { url, dataDir, child, output } satisfies ServerProcess;
}

export async function stopServerProcess(server: ServerProcess) {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** kill -9: the process ends at once, mid-whatever it was doing. */
export async function killServerProcess(server: ServerProcess) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

export async function callProcess(
  server: ServerProcess,
  method: string,
  url: string,
  token?: string,
  body?: object | string,
  contentType = 'application/json',
) {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, never> };
}

/**
 * Signs up and verifies through the process, reading the link from `mails` (by default its outbox),
 * signs in; answers the user and token.
 */
export async function processUser(
  server: ServerProcess,
  name: string,
  mails: () => { to: string; text: string }[] = () => readOutbox(server.dataDir),
) {
  const email = `${name.toLowerCase()}-${randomId(6).toLowerCase()}@example.test`;
  const signUp = await callProcess(server, 'POST', '/auth/sign-up', undefined, {
    name,
    email,
    password: PROCESS_PASSWORD,
  });
  if (signUp.status !== 202) throw new Error(`sign-up: ${signUp.status}`);
  const link = await eventually('the verification mail', async () =>
    mails()
      .filter((m) => m.to.includes(email))
      .map((m) => m.text.match(/https?:\/\/\S*\/user\/verify-email\?token=\S+/)?.[0])
      .find(Boolean),
  );
  await callProcess(server, 'POST', '/auth/verify-email', undefined, { token: tokenOf(link) });
  const signIn = await callProcess(server, 'POST', '/auth/sign-in', undefined, {
    email,
    password: PROCESS_PASSWORD,
  });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status}`);
  return { email, id: (signIn.body.user as { id: string }).id, token: signIn.body.token as string };
}

/** A new database on the PostgreSQL server of TEST_DATABASE_URL, for processes of a test's own. */
export async function createProcessDatabase() {
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  const name = `marquee_p_${randomId(10).toLowerCase()}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
