import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '@server/app';
import { loadConfig, type Config } from '@server/config';
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
