import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Beside this file; from the bundled server (dist/server/main.mjs, see scripts/start.mjs), in the sources. */
export const MIGRATIONS_DIR = fs.existsSync(path.join(here, 'migrations'))
  ? path.join(here, 'migrations')
  : path.resolve(here, '../../src/server/db/migrations');

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

export class DatabaseTooNewError extends Error {
  constructor(applied: number, known: number) {
    super(
      `The database was migrated by a newer version of Marquee (its schema is at migration ${applied}, ` +
        `this version knows ${known}). Upgrade Marquee or point it at another database.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

/** Applies the committed migrations; refuses a database that a newer Marquee has migrated. */
export async function migrateDatabase(database: Database): Promise<void> {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'),
  ) as Journal;
  const newestKnown = Math.max(...journal.entries.map((e) => e.when));
  const applied = await appliedMigrations(database);
  const unknown = applied.filter((when) => when > newestKnown);
  if (unknown.length > 0) throw new DatabaseTooNewError(applied.length, journal.entries.length);

  const config = { migrationsFolder: MIGRATIONS_DIR };
  if (database.kind === 'pglite') await migratePglite(database.db as never, config);
  else await migratePostgres(database.db as never, config);
}

async function appliedMigrations(database: Database): Promise<number[]> {
  const exists = await database.db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!rows<{ present: boolean }>(exists)[0]?.present) return [];
  const result = await database.db.execute(sql`select created_at from drizzle.__drizzle_migrations`);
  return rows<{ created_at: string }>(result).map((r) => Number(r.created_at));
}

/** PGlite answers { rows }, postgres-js answers the rows array itself. */
export function rows<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
