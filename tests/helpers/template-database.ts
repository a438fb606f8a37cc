import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase, PGLITE_EXTENSIONS } from '../../src/server/db/client';
import { migrateDatabase } from '../../src/server/db/migrate';
import { randomId } from '../../src/server/lib/ids';
import { installJobQueues } from '../../src/server/queue/queue';
import { JOB_QUEUES } from '../../src/server/queue/queues';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite cluster (dumpDataDir) that each test database starts from. */
    pgliteTemplateFile: string;
    /** A migrated PostgreSQL database that each test database is created from. */
    postgresTemplateName: string;
  }
}

/**
 * Vitest global setup of the integration projects: migrates one database per run (with the job queue's
 * tables, which buildApp would otherwise create in each), which every test file
 * then copies instead of running all migrations itself (PGlite starts from the dump without its initdb).
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.MARQUEE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  return kind === 'pglite' ? setupPglite(project) : setupPostgres(project);
}

const failSetup = (err: unknown) => {
  throw err;
};

async function setupPglite(project: TestProject) {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const db = drizzle(client) as never;
  await migrateDatabase({ db, kind: 'pglite', close: () => client.close() });
  await (await installJobQueues(db, JOB_QUEUES, failSetup)).stop();
  // Uncompressed: each test file loads it, and gunzip would cost more than the bytes do.
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-template-')), 'pglite.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplateFile', file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

async function setupPostgres(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('MARQUEE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `marquee_template_${randomId(10).toLowerCase()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Closed before any copy: PostgreSQL copies only a template nobody is connected to.
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
  await migrateDatabase(database);
  await (await installJobQueues(database.db, JOB_QUEUES, failSetup)).stop();
  await database.close();
  project.provide('postgresTemplateName', name);
  return async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
}
