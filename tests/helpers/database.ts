import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDatabase, type Database } from '@server/db/client';
import { MIGRATIONS_DIR, migrateDatabase, rows } from '@server/db/migrate';
import { randomId } from '@server/lib/ids';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** A test database; on PostgreSQL with its URL, so a second server process can open it too. */
export type TestDatabase = Database & { url?: string };

export const testDatabaseKind = (): TestDatabaseKind =>
  process.env.MARQUEE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

let pgliteTemplate: Blob | undefined;

/** The migrated cluster of tests/helpers/template-database.ts, read once per test file. */
function migratedPgliteTemplate(): Blob | undefined {
  const file = inject('pgliteTemplateFile');
  if (!file) return undefined;
  pgliteTemplate ??= new Blob([fs.readFileSync(file)]);
  return pgliteTemplate;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on the PostgreSQL
 * server of TEST_DATABASE_URL that is dropped again on close. Both copy the database the integration
 * projects' global setup migrated once (tests/helpers/template-database.ts); with `migrate: false` they
 * start empty.
 */
export async function openTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (testDatabaseKind() === 'pglite') {
    const template = migrate ? migratedPgliteTemplate() : undefined;
    const database = await openDatabase({ pgliteTemplate: template });
    if (migrate && !template) await migrateDatabase(database);
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('MARQUEE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `marquee_t_${randomId(10).toLowerCase()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const template = migrate ? inject('postgresTemplateName') : undefined;
  await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
  if (migrate && !template) await migrateDatabase(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Applies the migrations up to number `last` (a database as an earlier release left it). */
export async function migrateUpTo(database: TestDatabase, last: number) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-migrations-'));
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  try {
    const config = { migrationsFolder: folder };
    if (database.kind === 'pglite') await migratePglite(database.db as never, config);
    else await migratePostgres(database.db as never, config);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** How many backends of the test's database wait for a lock now (PostgreSQL). */
export async function lockWaiters(db: Database['db']) {
  const [found] = rows<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`),
  );
  return found.n;
}
