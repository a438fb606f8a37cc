import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import postgres from 'postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import {
  fillPlaceholders,
  TransactionRollbackError,
  type ExtractTablesWithRelations,
  type Query,
  type SQL,
} from 'drizzle-orm';
import * as schema from './schema';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  /** A pool on the read replica (`readDatabaseUrl`); without one, reads go to `db`. */
  readDb?: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… runs on PostgreSQL; otherwise embedded PGlite. */
  databaseUrl?: string;
  /** postgres://… of a streaming replica of `databaseUrl`, for reads that may lag (PostgreSQL only). */
  readDatabaseUrl?: string;
  /** Where PGlite keeps its files; undefined keeps it in memory (tests). */
  pgliteDir?: string;
  maxConnections?: number;
  /** In memory only: a PGlite dump (dumpDataDir) to start from instead of an empty cluster (tests). */
  pgliteTemplate?: Blob;
}

/**
 * A connection to PostgreSQL with Nagle's algorithm off, which postgres.js leaves on. A COPY goes out as
 * two writes, its data then a 5-byte CopyDone, and PostgreSQL answers neither: with Nagle on, the second
 * waited for the server's delayed ACK, 40 ms on every COPY of a few hundred rows (live tracking,
 * ingestion). The first host of the URL, or its socket directory.
 */
function connectNoDelay(options: { host: string[]; port: number[]; path?: string }) {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = options.path
      ? net.connect(options.path)
      : net.connect({ host: options.host[0], port: options.port[0] });
    socket.setNoDelay(true);
    callingBackOnWrites(socket);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** Callbacks waiting for the statement whose text holds their marker to be handed to the kernel. */
const onWritten = new Map<string, () => void>();

/**
 * Has the socket call the `onWritten` callback of a marker once the write holding that marker is done:
 * in the same turn of the event loop as the write, so no other work runs between the two.
 */
function callingBackOnWrites(socket: net.Socket) {
  const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
  socket.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!onWritten.size || !Buffer.isBuffer(chunk)) return write(chunk, ...rest);
    const callbacks = [...onWritten].filter(([marker]) => chunk.includes(marker));
    if (!callbacks.length) return write(chunk, ...rest);
    for (const [marker] of callbacks) onWritten.delete(marker);
    const done = rest.findIndex((arg) => typeof arg === 'function');
    const then = done >= 0 ? (rest[done] as (err?: Error) => void) : undefined;
    const args = done >= 0 ? rest.slice(0, done) : rest;
    return write(chunk, ...args, (err?: Error) => {
      if (!err) for (const [, callback] of callbacks) callback();
      then?.(err);
    });
  }) as typeof socket.write;
}

/** postgres.js takes a `socket` factory, which its types leave out. */
const NO_DELAY = { socket: connectNoDelay } as object;

/** The one place that chooses between embedded PGlite and a PostgreSQL server. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const max = options.maxConnections ?? 10;
    const client = postgres(options.databaseUrl, {
      max,
      ...NO_DELAY,
      onnotice: () => {},
      connection: { application_name: 'marquee' },
    });
    const db = withCommitHooks(drizzlePostgres(preparingAll(client), { schema }) as unknown as Db);
    const pipelined = [pipelineFor(db, options.databaseUrl, 'marquee')];
    committersOf.set(db, (work, written) => commitThenWrite(client, work, written));
    reserversOf.set(db, () => client.reserve());
    notificationsOf.set(db, {
      async listen(channel, onMessage, onRelisten) {
        // postgres.js keeps a dedicated connection for LISTEN and listens again after a reconnect.
        let listens = 0;
        const listening = await client.listen(channel, onMessage, () => {
          if (listens++ > 0) onRelisten?.();
        });
        return () => listening.unlisten();
      },
    });
    // The replica answers only reads the primary's caches miss: fewer connections, and no LISTEN (the
    // change notices come from the primary).
    const readClient = options.readDatabaseUrl
      ? postgres(options.readDatabaseUrl, {
          max: Math.max(2, Math.ceil(max / 2)),
          ...NO_DELAY,
          onnotice: () => {},
          connection: { application_name: 'marquee-read' },
        })
      : undefined;
    const readDb = readClient && (drizzlePostgres(preparingAll(readClient), { schema }) as unknown as Db);
    if (readDb) pipelined.push(pipelineFor(readDb, options.readDatabaseUrl!, 'marquee-read'));
    return {
      db,
      readDb,
      kind: 'postgres',
      close: async () => {
        await Promise.all([client, readClient, ...pipelined].map((each) => each?.end({ timeout: 5 })));
      },
    };
  }
  if (options.pgliteDir) {
    fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
    if (!fs.existsSync(path.join(options.pgliteDir, 'PG_VERSION'))) await initPgliteApart(options.pgliteDir);
  }
  const client = await PGlite.create(options.pgliteDir, {
    startParams: PGLITE_START_PARAMS,
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: options.pgliteDir ? undefined : options.pgliteTemplate,
  });
  return {
    db: withCommitHooks(drizzlePglite(client, { schema }) as unknown as Db),
    kind: 'pglite',
    close: () => client.close(),
  };
}

type PostgresClient = postgres.Sql | postgres.TransactionSql | postgres.ReservedSql;

const pipelines = new WeakMap<Db, Db>();

/**
 * Gives `db` a connection of its own for `readPipelined`, opened on first use and reopened when lost.
 * A PostgreSQL backend woken for every statement costs both sides more than the statement itself
 * (the writer's write wakes it, and on a busy machine it then takes the writer's processor): on one
 * connection, statements sent while others run queue in its socket, and the backend goes from one to
 * the next without sleeping.
 */
function pipelineFor(db: Db, url: string, applicationName: string) {
  const client = postgres(url, {
    max: 1,
    ...NO_DELAY,
    onnotice: () => {},
    connection: { application_name: applicationName },
  });
  pipelines.set(db, drizzlePostgres(preparingAll(client)) as unknown as Db);
  return client;
}

/**
 * A short read by key that many requests make at once (the delivery API's reads by id), sent on `db`'s
 * own connection where such reads are pipelined, one after the other (`db` itself for PGlite and
 * transactions). Only for statements of well under a millisecond: each waits for those before it.
 * A read handed to the connection as it was lost is sent again, on the connection opened again.
 */
export async function readPipelined<T>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  const pipelined = pipelines.get(db) ?? db;
  for (let attempt = 1; ; attempt++) {
    try {
      return await queryRows<T>(pipelined, text, params);
    } catch (error) {
      if (attempt === READ_ATTEMPTS || !connectionLost(error)) throw error;
    }
  }
}

/**
 * A socket error (a reset) comes before the connection is closed, so a read sent again at once can
 * be handed to the same connection and lost with it; the third goes to the connection opened again.
 */
const READ_ATTEMPTS = 3;

/**
 * The connection went away before the answer came: closed or reset under it, or its backend ended by
 * an administrator or a server restart (not this process ending its client).
 */
const CONNECTION_LOST_CODES = new Set(['CONNECTION_CLOSED', 'ECONNRESET', 'EPIPE', '57P01', '57P02']);
const connectionLost = (error: unknown) =>
  error instanceof Error && CONNECTION_LOST_CODES.has((error as { code?: string }).code ?? '');

/** How a database commits for `commitThen`. */
type Committer = (work: (tx: Db | Tx) => Promise<boolean>, written: () => void) => Promise<boolean>;
const committersOf = new WeakMap<Db, Committer>();

/**
 * Runs `work` in a transaction; when it answers true, commits, and calls `written` at the moment the
 * COMMIT has gone to PostgreSQL, before anything else runs. Work that must happen if and only if the
 * transaction commits (handing a provider the last part of a message) then cannot be cut from it by
 * the process dying in between, only by the machine losing the COMMIT itself. On PGlite, which lives
 * and dies with this process, `written` is called once the commit is done. Answers what `work` did.
 */
export async function commitThen(
  db: Db,
  work: (tx: Db | Tx) => Promise<boolean>,
  written: () => void,
): Promise<boolean> {
  const committer = committersOf.get(db);
  if (committer) return committer(work, written);
  try {
    await db.transaction(async (tx) => {
      if (!(await work(tx))) tx.rollback();
    });
  } catch (err) {
    if (err instanceof TransactionRollbackError) return false;
    throw err;
  }
  written();
  return true;
}

const reserversOf = new WeakMap<Db, () => Promise<postgres.ReservedSql>>();
const heldHere = new WeakMap<Db, Set<string>>();

/**
 * Runs `work` unless another runner holds the lock `name`: in this process, or on PostgreSQL in any
 * process on the database; answers undefined without running it when one does, never waiting. On
 * PostgreSQL the lock is a session advisory lock on a connection reserved while `work` runs (the work
 * itself runs on the pool), so a process that dies lets go of it with its connection.
 */
export async function unlessHeld<T>(db: Db, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const root = rootOf(db);
  let held = heldHere.get(root);
  if (!held) heldHere.set(root, (held = new Set()));
  if (held.has(name)) return undefined;
  held.add(name);
  try {
    const reserve = reserversOf.get(root);
    if (!reserve) return await work();
    const reserved = await reserve();
    try {
      const [row] = await reserved<{ locked: boolean }[]>`
        select pg_try_advisory_lock(hashtext('marquee.unless-held'), hashtext(${name})) as locked`;
      if (!row.locked) return undefined;
      try {
        return await work();
      } finally {
        await reserved`select pg_advisory_unlock(hashtext('marquee.unless-held'), hashtext(${name}))`;
      }
    } finally {
      reserved.release();
    }
  } finally {
    held.delete(name);
  }
}

async function commitThenWrite(
  client: postgres.Sql,
  work: (tx: Db | Tx) => Promise<boolean>,
  written: () => void,
): Promise<boolean> {
  const reserved = await client.reserve();
  const marker = `mq-commit-${randomBytes(9).toString('base64url')}`;
  let done = false;
  try {
    // BEGIN goes out with the work's first statement, one round trip for both.
    const begun = reserved.unsafe('begin').execute();
    begun.catch(() => undefined);
    // drizzle sets its type parsers on `options`, which a reserved connection shares with its client;
    // without the schema, whose relations it would work out again for every commit.
    const tx = Object.assign(preparingAll(reserved), { options: client.options });
    const ok = await work(drizzlePostgres(tx) as unknown as Db);
    await begun;
    if (!ok) {
      await reserved.unsafe('rollback');
      return false;
    }
    onWritten.set(marker, () => {
      done = true;
      written();
    });
    await reserved.unsafe(`commit /* ${marker} */`);
    return true;
  } catch (err) {
    if (!done) await reserved.unsafe('rollback').catch(() => undefined);
    throw err;
  } finally {
    onWritten.delete(marker);
    reserved.release();
  }
}

/**
 * drizzle has postgres.js prepare only the queries given a name; any other query with parameters then
 * costs two round trips (describe for the parameter types, then bind and execute), and PostgreSQL a
 * parse and plan, every time. This client prepares every query with parameters (postgres.js keeps them
 * per connection by their text, and renews connections after 30 to 60 minutes), so they take one round
 * trip, saves and transactions included. Queries without parameters stay unnamed: their text
 * may hold values (migrations, sql.raw).
 */
function preparingAll<C extends PostgresClient>(client: C): C {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'unsafe') {
        return (query: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(
            query,
            params as postgres.ParameterOrJSON<never>[],
            params?.length ? { ...options, prepare: true } : options,
          );
      }
      if (property === 'begin' || property === 'savepoint') {
        // A transaction's client (and a savepoint's) prepares the same way.
        return (...args: unknown[]) => {
          const body = args.at(-1) as (tx: postgres.TransactionSql) => unknown;
          args[args.length - 1] = (tx: postgres.TransactionSql) => body(preparingAll(tx));
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.apply(target, args);
        };
      }
      return Reflect.get(target, property);
    },
  });
}

/**
 * PostgreSQL's LISTEN, for what other server processes on the same database announce with NOTIFY.
 * PGlite has none here: one process owns its files.
 */
export interface Notifications {
  /**
   * Calls `onMessage` with each payload sent to `channel`, and `onRelisten` whenever the listening
   * connection was lost and listens again (notifications may have been missed meanwhile); answers a
   * function that stops listening.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onRelisten?: () => void,
  ): Promise<() => Promise<void>>;
}
const notificationsOf = new WeakMap<Db, Notifications>();

/** LISTEN on this database, or undefined on PGlite. */
export const notificationsFor = (db: Db | Tx): Notifications | undefined => notificationsOf.get(rootOf(db));

/**
 * PGlite runs PostgreSQL's defaults (128 MB of shared buffers, all of it soon resident in its WebAssembly
 * memory). One process with a small team's data does well with much less: measured with bench/memory.ts,
 * idle RSS went from about 300 MB to 170 MB.
 */
/** The contrib extensions the migrations create (pg_trgm: profile search). */
export const PGLITE_EXTENSIONS = { pg_trgm };

const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...[
    'shared_buffers=16MB',
    'temp_buffers=2MB',
    'work_mem=4MB',
    'maintenance_work_mem=32MB',
    'wal_buffers=1MB',
  ].flatMap((setting) => ['-c', setting]),
];

/**
 * Creates a new PGlite data directory in a short-lived child process: initdb's WebAssembly instance
 * leaves the process that ran it at about 800 MB resident, which a server would keep for good.
 */
async function initPgliteApart(dir: string) {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script =
    `const { PGlite } = await import(${JSON.stringify(pglite)});` +
    `const db = await PGlite.create(${JSON.stringify(dir)}); await db.close();`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`PGlite initdb failed (${code})`)),
    );
  });
}

/** Per open transaction: its database and what to run once it has committed. */
const openTransactions = new WeakMap<object, { root: Db; afterCommit: (() => unknown)[] }>();

/**
 * Transactions of this database remember their root database and run `afterCommit` hooks once committed
 * (in order, awaiting those that answer a promise) before the transaction's caller goes on.
 */
function withCommitHooks(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) => {
    const afterCommit: (() => unknown)[] = [];
    const result = await transaction(async (tx) => {
      openTransactions.set(tx, { root: db, afterCommit });
      return run(tx);
    }, config);
    for (const hook of afterCommit) await hook();
    return result;
  }) as Db['transaction'];
  return db;
}

/** Whether the handle is a transaction's (its writes commit with it). */
export const isTransaction = (db: Db | Tx) => openTransactions.has(db);

/** The database a handle belongs to: itself, or the database of a transaction. */
export function rootOf(db: Db | Tx): Db {
  return openTransactions.get(db)?.root ?? (db as Db);
}

/**
 * Runs `hook` now, and again after the transaction `db` belongs to has committed (caches dropped before
 * the commit could be filled again with the old rows by a concurrent read).
 */
export function nowAndAfterCommit(db: Db | Tx, hook: () => void) {
  hook();
  openTransactions.get(db)?.afterCommit.push(hook);
}

/** Runs `hook` once the transaction `db` belongs to has committed (at once outside a transaction). */
export async function afterCommit(db: Db | Tx, hook: () => Promise<unknown>) {
  const open = openTransactions.get(db);
  if (open) open.afterCommit.push(hook);
  else await hook();
}

/** A value for `copyRows`: text as it is, null as SQL NULL. */
export type CopyValue = string | null;

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_SPECIAL = /[\\\t\n\r]/;

/**
 * A value in COPY's text format: the backslash, tab, newline and carriage return escaped (everything
 * else, unicode included, passes as it is); most values have none, and are only searched.
 */
export const copyValue = (value: string) =>
  COPY_SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : value;

/** Rows in COPY's text format: tab between values, newline after each row, `\N` for null. */
export function copyText(rows: CopyValue[][]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (i) text += '\t';
      text += value === null ? '\\N' : copyValue(value);
    }
    text += '\n';
  }
  return text;
}

/**
 * Bulk-loads rows with `COPY table (columns) FROM STDIN` on PostgreSQL (`/dev/blob` on PGlite), in the
 * transaction `db` belongs to when it is one. `table` and `columns` are the caller's constant SQL
 * names, never input; the rows are data only.
 */
export async function copyRows(db: Db | Tx, table: string, columns: string[], rows: CopyValue[][]) {
  if (rows.length) await copyFrom(db, table, columns, copyText(rows));
}

/** `copyRows` of rows already in COPY's text format (`copyText`, or values escaped by `copyValue`). */
export async function copyFrom(db: Db | Tx, table: string, columns: string[], text: string) {
  const statement = `copy ${table} (${columns.join(', ')}) from`;
  const client = driverOf(db);
  if (isPglite(client)) {
    await client.query(`${statement} '/dev/blob'`, [], { blob: new Blob([text]) });
    return;
  }
  const query = (client as postgres.Sql).unsafe(`${statement} stdin`);
  await new Promise<void>((resolve, reject) => {
    // postgres.js settles the query with the stream, and an error PostgreSQL reports once the data has
    // ended (a foreign key, a constraint) reaches only the query's reject, never the stream: hook it.
    const rejectQuery = (query as unknown as { reject: (err: unknown) => void }).reject;
    (query as unknown as { reject: (err: unknown) => void }).reject = (err) => {
      reject(err);
      rejectQuery(err);
    };
    query.writable().then((writable) => {
      writable.once('error', reject);
      writable.end(text, () => resolve());
    }, reject);
  });
}

const isPglite = (client: unknown): client is Pick<PGlite, 'query'> =>
  client instanceof PGlite || !('unsafe' in (client as object));

/** drizzle keeps the driver's client (or its transaction's) on the session. */
const driverOf = (db: Db | Tx) => (db as unknown as { session: { client: unknown } }).session.client;

/**
 * The rows of a statement whose text never changes, run by the driver itself (on PostgreSQL prepared
 * once per connection, as every query with parameters): for the hottest reads, which then skip drizzle
 * building the query each time. Values come back as from drizzle's `execute`.
 */
export async function queryRows<T>(db: Db | Tx, text: string, params: unknown[]): Promise<T[]> {
  const client = driverOf(db);
  if (isPglite(client)) return (await client.query<T>(text, params)).rows;
  return (client as postgres.Sql).unsafe<T[]>(text, params as postgres.ParameterOrJSON<never>[]);
}

const dialect = new PgDialect();

/**
 * A statement built once, its values `sql.placeholder(name)`s, then run by the driver with the values of
 * each call (see `queryRows`): for the hottest writes, whose text drizzle would otherwise build every time.
 */
export function statementOnce(build: () => SQL) {
  let query: Query | undefined;
  return <T>(db: Db | Tx, values: Record<string, unknown>): Promise<T[]> => {
    query ??= dialect.sqlToQuery(build());
    return queryRows<T>(db, query.sql, fillPlaceholders(query.params, values));
  };
}
