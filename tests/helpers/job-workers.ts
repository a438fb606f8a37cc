import { buildApp } from '@server/app';
import { openDatabase, type Database } from '@server/db/client';
import { testDatabaseKind } from './database';
import type { TestApp } from './test-app';

/**
 * Two more server processes on the test app's database, both running the job worker (polling every
 * 50 ms); on PostgreSQL the second has a connection pool of its own, as another process would.
 */
export async function startJobWorkers(t: TestApp) {
  const config = { ...t.config, jobs: true, jobsPollMs: 50 };
  const second: Database | undefined =
    testDatabaseKind() === 'postgres'
      ? await openDatabase({ databaseUrl: t.database.url!, maxConnections: 3 })
      : undefined;
  const workers = [
    await buildApp({ config, db: t.database.db, logger: false }),
    await buildApp({ config, db: (second ?? t.database).db, logger: false }),
  ];
  return {
    async close() {
      for (const worker of workers) await worker.close();
      await second?.close();
    },
  };
}
