import type { JobInsert, PgBoss } from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';
import { jobDb, JOB_SCHEMA } from './job-db';

/**
 * From pg-boss 10's schema (version 24) to pg-boss 12's. pg-boss 12 migrates only from pg-boss 11's
 * schema (25) on, and pg-boss 11 has no migration from 24, so a database that ran pg-boss 10 is upgraded
 * here: its `pgboss` schema is renamed aside, pg-boss 12 installs afresh, the jobs still to run are
 * copied over through pg-boss's insert, and the old schema is dropped. Each step holds an advisory lock
 * and looks again at what the database holds, so processes that start together, or one that dies half
 * way, leave the jobs copied once.
 */

/** Where pg-boss 10's schema waits while its jobs are copied. */
const VERSION_10_SCHEMA = `${JOB_SCHEMA}_v10`;
const VERSION_10 = 24;

const lock = sql`select pg_advisory_xact_lock(hashtext(${`marquee.${JOB_SCHEMA}.upgrade`}))`;

/**
 * Whether a schema exists, read from the catalog as of this statement: once the lock is held, a
 * schema another process renamed or dropped meanwhile (to_regnamespace answers from a cache that a
 * transaction refreshes only as it locks tables).
 */
const schemaExists = (name: string) =>
  `exists (select from pg_catalog.pg_namespace where nspname = '${name}')`;

/** Renames a pg-boss 10 schema aside, so that pg-boss 12 installs its own in its place. */
export async function setAsideVersion10Schema(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(lock);
    // Nested: the inner condition is planned only once the version table is known to exist.
    await tx.execute(
      sql.raw(`do $$ begin
        if ${schemaExists(JOB_SCHEMA)} and not ${schemaExists(VERSION_10_SCHEMA)}
          and exists (select from pg_catalog.pg_tables where schemaname = '${JOB_SCHEMA}' and tablename = 'version') then
          if (select max(version) from ${JOB_SCHEMA}.version) = ${VERSION_10} then
            alter schema ${JOB_SCHEMA} rename to ${VERSION_10_SCHEMA};
          end if;
        end if;
      end $$`),
    );
  });
}

/**
 * Copies the jobs of the queues named `queues` that pg-boss 10 had still to run into pg-boss 12's tables (`boss` is
 * started on them, with the queues created), then drops pg-boss 10's schema, in one transaction.
 * A job keeps its id, data, singleton key, start time, priority, expiry and the tries it had left; one
 * that was running is due again at once (its process is gone; the work it did is claimed at its row).
 * Jobs of other queues, pg-boss's cron state and its archive are dropped.
 */
export async function copyVersion10Jobs(db: Db, boss: PgBoss, queues: readonly string[]) {
  await db.transaction(async (tx) => {
    await tx.execute(lock);
    const found = await tx.execute(sql.raw(`select ${schemaExists(VERSION_10_SCHEMA)} as present`));
    if (!rows<{ present: boolean }>(found)[0]?.present) return;
    const schema = sql.raw(VERSION_10_SCHEMA);
    const waiting = await tx.execute(sql`
      select name, jsonb_build_object(
          'id', id, 'data', data, 'priority', priority, 'singletonKey', singleton_key, 'startAfter', start_after,
          'retryLimit', retry_limit - retry_count - (started_on is not null)::int, 'retryDelay', retry_delay,
          'retryBackoff', retry_backoff, 'expireInSeconds', greatest(1, ceil(extract(epoch from expire_in)))::int
        ) as job
      from ${schema}.job
      where state in ('created', 'retry', 'active') and retry_limit - retry_count - (started_on is not null)::int >= 0
      order by created_on, id`);
    const jobs = rows<{ name: string; job: JobInsert }>(waiting);
    for (const queue of queues) {
      const ofQueue = jobs.filter((row) => row.name === queue).map((row) => row.job);
      if (ofQueue.length) await boss.insert(queue, ofQueue, { db: jobDb(tx) });
    }
    await tx.execute(sql`drop schema ${schema} cascade`);
  });
}
