import type { FastifyInstance } from 'fastify';
import { buildApp } from '@server/app';
import type { Config } from '@server/config';
import { openDatabase, type Database } from '@server/db/client';
import { openTestDatabase, type TestDatabase } from './database';
import { startApp, type StartAppOptions } from './start-app';

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
  options: StartAppOptions = {},
): Promise<TestApp> {
  // Background jobs run only in the tests that ask for them (startApp leaves them off).
  return startApp(await openTestDatabase(), overrides, options);
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

/**
 * A server on `plain`'s database whose job worker sends campaign and journey email to the SMTP
 * server at `smtpUrl` quickly (a 50 ms poll, no rate limit, short leases and retries), for the tests
 * of sending; `campaigns` and the rest override its settings. Accounts made through `plain` keep
 * their mail in its outbox.
 */
export async function sendingServer(
  plain: TestApp,
  smtpUrl: string,
  {
    campaigns,
    ...overrides
  }: Partial<Omit<Config, 'campaigns'>> & { campaigns?: Partial<Config['campaigns']> } = {},
): Promise<TestApp> {
  const config: Config = {
    ...plain.config,
    smtpUrl,
    jobs: true,
    jobsPollMs: 50,
    ...overrides,
    campaigns: {
      connections: 2,
      ratePerSecond: { smtp: 0, sendgrid: 0 },
      chunkSize: 10,
      leaseMs: 5000,
      retryBaseMs: 20,
      ...campaigns,
    },
  };
  const app = await buildApp({
    config,
    db: plain.database.db,
    logger: process.env.TEST_LOG ? { level: 'error' } : false,
  });
  await app.ready();
  return { ...plain, app, config, close: () => app.close() };
}
