import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { BackgroundWork } from './lib/background';

/** What every service gets: the database, the configuration, the mailer, a logger and work for after the answer. */
export interface AppContext {
  db: Db;
  /**
   * The read replica (DATABASE_READ_URL), or `db` without one: for reads that may lag behind writes,
   * never for what must see a write just made.
   */
  readDb: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  background: BackgroundWork;
}
