import { PgBoss, type JobInsert, type SendOptions } from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import { afterCommit, rootOf, type Db, type Tx } from '../db/client';
import { BOSS_OPTIONS, JOB_SCHEMA, jobDb, trackedJobDb } from './job-db';
import { copyVersion10Jobs, setAsideVersion10Schema } from './upgrade';

/**
 * The job queue: pg-boss 12 over our own database client, so it works on PGlite as on PostgreSQL, with
 * no pool of its own. Its tables live in the `pgboss` schema, which `installJobQueues` creates (or
 * migrates, from pg-boss 10's too: see `upgrade.ts`) when the app starts.
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

const toBossOptions = (options: EnqueueOptions): SendOptions => ({
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
  const id = await senderFor(db, queue).send(queue.name, data, { ...toBossOptions(options), db: jobDb(db) });
  if (!isLater(options.startAfter)) await afterCommit(db, async () => wakeWorkers(rootOf(db), queue));
  return id;
}

/** `enqueue` of many jobs in one statement. */
export async function enqueueMany<T extends object>(
  db: Db | Tx,
  queue: JobQueue<T>,
  jobs: (EnqueueOptions & { data: T })[],
) {
  const sender = senderFor(db, queue);
  if (jobs.length === 0) return;
  await sender.insert(
    queue.name,
    jobs.map(({ data, startAfter, ...options }): JobInsert => ({
      data,
      ...options,
      startAfter: startAfter instanceof Date ? startAfter.toISOString() : startAfter,
    })),
    { db: jobDb(db) },
  );
  if (jobs.some((job) => !isLater(job.startAfter)))
    await afterCommit(db, async () => wakeWorkers(rootOf(db), queue));
}

const isLater = (startAfter: Date | number | undefined) =>
  startAfter instanceof Date ? startAfter.getTime() > Date.now() : (startAfter ?? 0) > 0;

/**
 * A statement part that adds one job per row of `rows` (a relation with `data` jsonb and `singleton_key`
 * text columns), with the queue's stored retry, expiry and retention, for writes that must stay one
 * statement (an item save's webhook deliveries) or that queue many rows at once (the sweep). pg-boss's
 * own insert takes its rows as a parameter, so this is its `insertJobs` (dist/plans.js) with the rows
 * from SQL instead. It relies on pg-boss's tables, not on its code: the columns of `pgboss.queue` and
 * `pgboss.job` that insert fills, `job_now()` (its clock), and `pgboss.job` being partitioned by queue
 * name (a row inserted there lands in the queue's table, whose unique indexes hold the singleton keys).
 */
export function insertJobsFrom<T extends object>(queue: JobQueue<T>, rows: SQL): SQL {
  const schema = sql.raw(JOB_SCHEMA);
  return sql`insert into ${schema}.job (name, data, singleton_key, policy, start_after, created_on, retry_limit,
      retry_delay, retry_backoff, retry_delay_max, expire_seconds, deletion_seconds, keep_until, dead_letter,
      heartbeat_seconds)
    select q.name, r.data, r.singleton_key, q.policy, ${schema}.job_now(), ${schema}.job_now(), q.retry_limit,
      q.retry_delay, q.retry_backoff, q.retry_delay_max, q.expire_seconds, q.deletion_seconds,
      ${schema}.job_now() + q.retention_seconds * interval '1 second', q.dead_letter, q.heartbeat_seconds
    from ${rows} r join ${schema}.queue q on q.name = ${queue.name}
    on conflict do nothing`;
}

/** The installed queues of a database, and the started pg-boss that sends their jobs. */
interface Sender {
  boss: PgBoss;
  queues: ReadonlySet<string>;
}

/** Each database's senders: one per `installJobQueues` not yet stopped (several apps may share one). */
const senders = new WeakMap<Db, Set<Sender>>();

/**
 * Creates (or migrates) pg-boss's schema and the queues, so any process can enqueue, whether it runs jobs
 * or not (buildApp runs it; workers then set the queues' retry and expiry from their config). Answers
 * how to stop sending: pg-boss sends only once started (it reads the queues' tables from a cache of
 * them). It also runs the background migrations of later pg-boss versions (`migrate`). `onError`
 * hears of its failures in the background (a refresh of that cache).
 */
export async function installJobQueues(
  db: Db,
  queues: readonly JobQueue<object>[],
  onError: (err: unknown) => void,
) {
  await setAsideVersion10Schema(db);
  const tracked = trackedJobDb(db);
  const boss = new PgBoss({
    ...BOSS_OPTIONS,
    db: tracked.jobDb,
    supervise: false,
    schedule: false,
    migrate: true,
  });
  boss.on('error', onError);
  const stop = async () => {
    await boss.stop({ graceful: false });
    await tracked.settled();
  };
  try {
    await boss.start();
    for (const queue of queues) await boss.createQueue(queue.name, { policy: queue.policy });
    await copyVersion10Jobs(
      db,
      boss,
      queues.map((queue) => queue.name),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const sender: Sender = { boss, queues: new Set(queues.map((queue) => queue.name)) };
  const set = senders.get(db) ?? new Set();
  senders.set(db, set);
  set.add(sender);
  return {
    async stop() {
      set.delete(sender);
      await stop();
    },
  };
}

/**
 * The pg-boss that sends `queue`'s jobs on the database of `db`. Only for an installed queue: pg-boss
 * would otherwise look the queue up outside the caller's transaction (on PGlite, waiting for it).
 */
function senderFor(db: Db | Tx, queue: JobQueue<object>): PgBoss {
  for (const sender of senders.get(rootOf(db)) ?? []) if (sender.queues.has(queue.name)) return sender.boss;
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
