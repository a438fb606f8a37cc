import type { ConstructorOptions } from 'pg-boss';
import { rootOf, type Db, type Tx } from '../db/client';

/** Where pg-boss keeps its tables. */
export const JOB_SCHEMA = 'pgboss';

/**
 * What every pg-boss instance of ours shares: no registry of instances and no OpenTelemetry (neither is
 * read), so an idle process makes no statements for them.
 */
export const BOSS_OPTIONS = {
  schema: JOB_SCHEMA,
  registerInstance: false,
  openTelemetry: { enabled: false },
} satisfies ConstructorOptions;

/** The `db` pg-boss runs its SQL through: our client, or the caller's transaction. */
export interface JobDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's commands that take a lock (and its install) run as `BEGIN; …; COMMIT;` in one text. */
const TRANSACTION_TEXT = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/;

interface PgliteClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
}
interface PostgresClient {
  unsafe(text: string, values?: unknown[]): Promise<unknown[]>;
}
type DriverClient = PgliteClient | PostgresClient;

// drizzle keeps the driver's client (or its transaction's) on the session, as copyFrom in db/client reads it.
const clientOf = (db: Db | Tx) => (db as unknown as { session: { client: DriverClient } }).session.client;

/**
 * JSON for objects (postgres.js sends only strings for json parameters), ISO text for times (which it
 * sends only for a parameter it knows to be one), null for undefined.
 */
const parameter = (value: unknown) =>
  value === undefined
    ? null
    : value instanceof Date
      ? value.toISOString()
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? JSON.stringify(value)
        : value;

/** The rows of a statement, or of all the statements of a text (a RETURNING need not come last). */
async function run(client: DriverClient, text: string, values?: unknown[]) {
  if ('exec' in client) {
    // PGlite: several statements only through exec, which takes no parameters.
    if (values?.length) return client.query(text, values.map(parameter));
    return { rows: (await client.exec(text)).flatMap((result) => result.rows) };
  }
  const result = Array.from(await client.unsafe(text, (values ?? []).map(parameter)));
  // postgres.js answers a text of several statements with the rows of each.
  const several = result.length > 0 && result.every((rows) => Array.isArray(rows));
  return { rows: several ? (result as unknown[][]).flat() : result };
}

/**
 * pg-boss's SQL over `db`. Its `BEGIN; …; COMMIT;` texts run in a transaction of ours: on postgres.js a
 * bare BEGIN on a pooled connection is refused, and on PGlite a failed one would leave the only
 * connection in an aborted transaction.
 */
export function jobDb(db: Db | Tx, onQuery?: (query: Promise<unknown>) => void): JobDb {
  return {
    executeSql(text, values) {
      const locked = TRANSACTION_TEXT.exec(text);
      const query = locked
        ? rootOf(db).transaction((tx) => run(clientOf(tx), locked[1]))
        : run(clientOf(db), text, values);
      onQuery?.(query);
      return query;
    },
  };
}

/** A `jobDb` over `db` that keeps its queries under way, so that a stop can wait for them. */
export function trackedJobDb(db: Db) {
  const queries = new Set<Promise<unknown>>();
  const track = (query: Promise<unknown>) => {
    queries.add(query);
    void query.then(
      () => queries.delete(query),
      () => queries.delete(query),
    );
  };
  return {
    jobDb: jobDb(db, track),
    /** Waits until no query is under way, those started meanwhile included. */
    async settled() {
      do {
        await Promise.allSettled([...queries]);
        await new Promise((resolve) => setImmediate(resolve));
      } while (queries.size > 0);
    },
  };
}
