/**
 * What in-process benches share: a fresh PostgreSQL database (created, migrated, dropped after), the app
 * built on it in this process with `call` over app.inject, and a verified manager of a workspace whose
 * Legal role must approve some schemas.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface InProcessBench {
  database: Database;
  app: FastifyInstance;
  /** An injected request that must answer `expected`, or throws naming it. */
  call(options: InjectOptions, expected?: number): Promise<LightMyRequestResponse>;
}

export async function withInProcessApp(
  name: string,
  options: { jobs?: boolean; logger?: boolean },
  run: (bench: InProcessBench) => Promise<void>,
) {
  const dbName = `marquee_bench_${name}_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 20 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-'));
  let app: FastifyInstance | undefined;
  try {
    await migrateDatabase(database);
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'bench', PUBLIC_URL: 'http://bench.test' }),
      authRateLimit: 1_000_000,
      ...(options.jobs === false && { jobs: false }),
      webDir: path.join(dataDir, 'no-web'),
    };
    app = await buildApp({ config, db: database.db, logger: options.logger ?? false });
    await app.ready();
    const inject = app.inject.bind(app);
    const call = async (request: InjectOptions, expected = 200) => {
      const res = await inject(request);
      if (res.statusCode !== expected)
        throw new Error(`${request.method} ${request.url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return res;
    };
    await run({ database, app, call });
  } finally {
    await app?.close();
    await database.close();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A verified user managing a new workspace, holding its admin role and a Legal role that must approve `mustApprove`. */
export async function managerWithLegal(
  { database, call }: InProcessBench,
  basics: { domains: string[]; stages: string[] },
  mustApprove: string[],
) {
  const account = { name: 'Bench User', email: 'bench@example.test', password: 'correct horse battery' };
  await call({ method: 'POST', url: '/api/v1/auth/sign-up', payload: account }, 202);
  const signIn = await call({ method: 'POST', url: '/api/v1/auth/sign-in', payload: account });
  const { token, user } = signIn.json() as { token: string; user: { id: string } };
  await database.db.execute(sql`update users set email_verified = true where id = ${user.id}`);
  const headers = { authorization: `Bearer ${token}` };
  const ws = (
    await call({ method: 'POST', url: '/api/v1/workspaces', headers, payload: { name: 'Bench' } }, 201)
  ).json() as { id: string; roles: Record<string, unknown> };
  await call({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ws.id}`,
    headers,
    payload: {
      basics,
      roles: { ...ws.roles, legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove } },
    },
  });
  await call({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ws.id}/members/${user.id}`,
    headers,
    payload: { roles: ['admin', 'legal'] },
  });
  return { user, headers, ws };
}
