import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import { afterCommit, rootOf, type Db, type Tx } from '../db/client';

/**
 * The job queue: pg-boss 10 (the last line that runs on Node 20) over our own database client, so it
 * works on PGlite as on PostgreSQL, with no pool of its own. Its tables live in the `pgboss` schema,
 * which `installJobQueues` creates when the app starts.
 *
 * Using it from a module:
 * - define the queue in `queue/queues.ts` with `defineQueue('name', { policy })`;
 * - `enqueue(tx, queue, data, { startAfter, singletonKey, … })` inside the transaction of the write that
 *   asks for the work: the job exists if and only if that write committed;
 * - register a handler in `jobs/worker.ts` (`JOB_HANDLERS`): it gets batches of jobs, runs in every
 *   process with `JOBS` on, and is retried elsewhere when its process stops or dies (after
 *   `JOBS_EXPIRE_SECONDS`). A job may run more than once: handlers claim what they work on (a row with a
 *   lease) so the work itself happens once.
 */

const JOB_SCHEMA = 'pgboss';

/** A named queue and the shape of its jobs' data. */
export interface JobQueue<T extends object> {
  name: string;
  /**
   * `short`: at most one waiting job per `singletonKey` (a second `enqueue` with the key is dropped);
   * `standard`: no such limit.
   */
  policy: 'standard' | 'short';
  /** Only for typing `enqueue` and the handler. */
  readonly data?: T;
}

export const defineQueue = <T extends object>(name: string, policy: JobQueue<T>['policy']): JobQueue<T> => ({
  name,
  policy,
});

export interface EnqueueOptions {
  /** When the job may start: a time, or seconds from now. Default: at once. */
  startAfter?: Date | number;
  /** With the queue's `short` policy: no second waiting job with this key. */
  singletonKey?: string;
  /** Tries after the first when the handler fails or its process dies (default: the queue's). */
  retryLimit?: number;
  /** Seconds before a retry (default: the queue's, `JOBS_RETRY_SECONDS`). */
  retryDelay?: number;
  /** Double the delay on each retry. */
  retryBackoff?: boolean;
  /** How long a try may run before it counts as abandoned (default: `JOBS_EXPIRE_SECONDS`). */
  expireInSeconds?: number;
}

/** The `db` pg-boss runs its SQL through: our client, or the caller's transaction. */
export interface JobDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's commands that take a lock run as `BEGIN; …; COMMIT;` in one text. */
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

/** JSON for objects (postgres.js sends only strings for json parameters), null for undefined. */
const parameter = (value: unknown) =>
  value === undefined
    ? null
    : value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
      ? JSON.stringify(value)
      : value;

async function run(client: DriverClient, text: string, values?: unknown[]) {
  if ('exec' in client) {
    // PGlite: several statements only through exec, which takes no parameters.
    if (values?.length) return client.query(text, values.map(parameter));
    return (await client.exec(text)).at(-1) ?? { rows: [] };
  }
  return { rows: Array.from(await client.unsafe(text, (values ?? []).map(parameter))) };
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

/** Sends jobs only, always through the `db` given to it (a transaction's). */
const sender = new PgBoss({
  db: {
    executeSql: () => Promise.reject(new Error('Jobs are sent through a database handle')),
  },
  supervise: false,
  schedule: false,
  migrate: false,
});

const toBossOptions = (options: EnqueueOptions): PgBoss.SendOptions => ({
  ...options,
  startAfter: typeof options.startAfter === 'number' ? Math.ceil(options.startAfter) : options.startAfter,
});

/** Adds a job in the transaction (or on the database) `db`; answers its id, or null when a singleton key dropped it. */
export async function enqueue<T extends object>(
  db: Db | Tx,
  queue: JobQueue<T>,
  data: T,
  options: EnqueueOptions = {},
): Promise<string | null> {
  requireInstalled(queue);
  const id = await sender.send(queue.name, data, { ...toBossOptions(options), db: jobDb(db) });
  if (!isLater(options.startAfter)) await afterCommit(db, async () => wakeWorkers(rootOf(db), queue));
  return id;
}

/** `enqueue` of many jobs in one statement. */
export async function enqueueMany<T extends object>(
  db: Db | Tx,
  queue: JobQueue<T>,
  jobs: (EnqueueOptions & { data: T })[],
) {
  requireInstalled(queue);
  if (jobs.length === 0) return;
  await sender.insert(
    jobs.map(({ data, startAfter, ...options }) => ({
      name: queue.name,
      data,
      ...options,
      startAfter: startAfter instanceof Date ? startAfter.toISOString() : startAfter,
    })) as PgBoss.JobInsert[],
    { db: jobDb(db) },
  );
  if (jobs.some((job) => !isLater(job.startAfter)))
    await afterCommit(db, async () => wakeWorkers(rootOf(db), queue));
}

const isLater = (startAfter: Date | number | undefined) =>
  startAfter instanceof Date ? startAfter.getTime() > Date.now() : (startAfter ?? 0) > 0;

/**
 * A statement part that adds one job per row of `rows` (a relation with `data` jsonb and `singleton_key`
 * text columns), with the queue's stored retry and expiry, for writes that must stay one statement (an
 * item save's webhook deliveries) or that queue many rows at once (the sweep). pg-boss's own insert
 * takes its rows as a parameter, so this is its `insertJobs` with the rows from SQL instead.
 */
export function insertJobsFrom<T extends object>(queue: JobQueue<T>, rows: SQL): SQL {
  const schema = sql.raw(JOB_SCHEMA);
  return sql`insert into ${schema}.job (name, data, singleton_key, policy, retry_limit, retry_delay, retry_backoff, expire_in, keep_until)
    select q.name, r.data, r.singleton_key, q.policy, coalesce(q.retry_limit, 2), coalesce(q.retry_delay, 0),
      coalesce(q.retry_backoff, false), coalesce(q.expire_seconds, 900) * interval '1 second',
      now() + coalesce(q.retention_minutes, 14 * 24 * 60) * interval '1 minute'
    from ${rows} r join ${schema}.queue q on q.name = ${queue.name}
    on conflict do nothing`;
}

/**
 * Creates (or migrates) pg-boss's schema and the queues, so any process can enqueue, whether it runs jobs
 * or not (buildApp runs it; workers then set the queues' retry and expiry from their config).
 */
export async function installJobQueues(db: Db, queues: readonly JobQueue<object>[]) {
  const boss = new PgBoss({ db: jobDb(db), supervise: false, schedule: false, migrate: true });
  await boss.start();
  for (const queue of queues) {
    await boss.createQueue(queue.name, { name: queue.name, policy: queue.policy });
    installedQueues.add(queue.name);
  }
  await boss.stop({ graceful: false });
}

/** The queues `installJobQueues` created: pg-boss drops a job for any other queue without a word. */
const installedQueues = new Set<string>();

function requireInstalled(queue: JobQueue<object>) {
  if (!installedQueues.has(queue.name))
    throw new Error(`Job queue "${queue.name}" is not created: add it to JOB_QUEUES (queue/queues.ts)`);
}

/** The workers started on a database, by queue, so a job enqueued in this process starts without a poll. */
const wakers = new WeakMap<Db, Set<{ queue: string; wake: () => void }>>();

/** Calls `wake` whenever a job of `queue` is enqueued on `db` in this process; answers how to stop. */
export function onEnqueue(db: Db, queue: string, wake: () => void) {
  const set = wakers.get(db) ?? new Set();
  wakers.set(db, set);
  const entry = { queue, wake };
  set.add(entry);
  return () => set.delete(entry);
}

/** Has this process's workers of `queue` look for jobs now instead of at their next poll. */
export function wakeWorkers(db: Db, queue: JobQueue<object>) {
  for (const entry of wakers.get(db) ?? []) if (entry.queue === queue.name) entry.wake();
}
