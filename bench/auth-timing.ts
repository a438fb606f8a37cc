/**
 * Whether an answer's timing tells a registered address from a new one: sign-up,
 * password reset and change-email, each alternating a registered and an unregistered address, through
 * the real HTTP stack (inject) on PostgreSQL. Prints the median and p90 in ms per path; the mail of
 * either path goes after the answer, so it does not count.
 *
 *   npx tsx bench/auth-timing.ts     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const PASSWORD = 'correct horse battery';

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { medianMs: +at(0.5).toFixed(2), p90Ms: +at(0.9).toFixed(2) };
};

async function main() {
  const dbName = `marquee_timing_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-timing-'));
  try {
    await migrateDatabase(database);
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'bench', PUBLIC_URL: 'http://bench.test' }),
      authRateLimit: 1_000_000,
    };
    const app = await buildApp({ config, db: database.db, logger: false });
    await app.ready();
    const post = async (url: string, payload: object, token?: string) => {
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        payload,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const ms = performance.now() - started;
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      // The mail after the answer is not timed, and must not slow the next request measured.
      await app.background.idle();
      return ms;
    };
    const registered = { name: 'Rita Registered', email: 'rita@example.test', password: PASSWORD };
    await post('/auth/sign-up', registered);
    const signIn = await app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', payload: registered });
    const token = signIn.json().token as string;
    await app.background.idle();

    const times: Record<string, number[]> = {};
    const time = (name: string, ms: number) => (times[name] ??= []).push(ms);
    // A warm-up round of each, then alternate so drift hits both paths alike.
    await post('/auth/request-password-reset', { email: 'warm@example.test' });
    for (let i = 0; i < ROUNDS; i++) {
      const fresh = { name: `New ${i}`, email: `new-${i}@example.test`, password: PASSWORD };
      time('sign-up: new address', await post('/auth/sign-up', fresh));
      time('sign-up: registered address', await post('/auth/sign-up', { ...fresh, email: registered.email }));
      time(
        'reset: registered address',
        await post('/auth/request-password-reset', { email: registered.email }),
      );
      time(
        'reset: unknown address',
        await post('/auth/request-password-reset', { email: `nobody-${i}@example.test` }),
      );
      const change = (newEmail: string) =>
        post('/auth/change-email', { currentPassword: PASSWORD, newEmail }, token);
      time('change-email: free address', await change(`free-${i}@example.test`));
      time('change-email: taken address', await change(`new-${i}@example.test`));
    }
    console.table(Object.entries(times).map(([path, ms]) => ({ path, ...summary(ms) })));
    await app.close();
  } finally {
    await database.close();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
