import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppOptions } from '@server/app';
import { loadConfig, type Config } from '@server/config';
import type { Mailer } from '@server/mail/mailer';
import type { TestDatabase } from './database';
import type { TestApp } from './test-app';

export interface StartAppOptions extends Pick<AppOptions, 'onRoute'> {
  logger?: boolean | object;
  mailer?: Mailer;
}

/**
 * The real application on `database` (closed with it), its outbox in a temporary DATA_DIR, background
 * jobs off unless `overrides` turn them on. Needs no test runner: the integration tests' createTestApp
 * and the end-to-end specs' own servers both start the app with it.
 */
export async function startApp(
  database: TestDatabase,
  overrides: Partial<Config> = {},
  options: StartAppOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'test-secret', PUBLIC_URL: 'http://marquee.test' }),
    authRateLimit: 10_000,
    webDir: path.join(dataDir, 'no-web'),
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
