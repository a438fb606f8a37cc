import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '@server/app';
import { loadConfig, type Config } from '@server/config';
import { openDatabase, type Database } from '@server/db/client';
import type { Mailer } from '@server/mail/mailer';
import { openTestDatabase, type TestDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** The real application on a fresh database, with its outbox in a temporary DATA_DIR. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  options: { logger?: boolean | object; mailer?: Mailer } & Pick<AppOptions, 'onRoute'> = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
  const database = await openTestDatabase();
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'test-secret', PUBLIC_URL: 'http://marquee.test' }),
    authRateLimit: 10_000,
    webDir: path.join(dataDir, 'no-web'),
    // Background jobs run only in the tests that ask for them.
    jobs: false,
    ...overrides,
  };
  const app = await buildApp({
    config,
    db: database.db,
    logger: options.logger ?? (process.env.TEST_LOG ? { level: 'error' } : false),
    mailer: options.mailer,
    onRoute: options.onRoute,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SecondServer {
  app: FastifyInstance;
  /** Its own connection to the test database. */
  database: Database;
  close(): Promise<void>;
}

/**
 * Another server process on the same PostgreSQL database as `t`, over a connection of its own, as a
 * second machine behind a load balancer would run: for what must reach it through the database alone.
 */
export async function startSecondServer(t: TestApp): Promise<SecondServer> {
  if (!t.database.url) throw new Error('A second server process needs the PostgreSQL test database');
  const database = await openDatabase({ databaseUrl: t.database.url, maxConnections: 2 });
  const app = await buildApp({ config: t.config, db: database.db, logger: false });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
