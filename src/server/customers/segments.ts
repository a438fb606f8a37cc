import { sql, type SQL } from 'drizzle-orm';
import { copyFrom, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';
import { CUSTOMER_PARTITIONS } from '../db/schema';
import {
  EVENT_COPY_COLUMNS,
  eventsCopyText,
  insertStaged,
  LIVE_EVENTS_LOCK,
  type EventsByKey,
} from './repository';

/**
 * Segments: a large import's own partitions of `customer_events` (migration 0014). Every hash partition
 * `customer_events_p{n}` is partitioned by `segment`: 0 is the live partition, written row by row, and
 * each segment N a partition `customer_events_s{N}_p{n}` of its own.
 *
 * Written row by row, every event adds an entry at a random place in both indexes of a partition far
 * larger than PostgreSQL's buffers, so each one costs a page read and a page write (at 1,000,000
 * profiles and 10,000,000 events, 55–60 µs of PostgreSQL's time per event). A segment is loaded
 * without indexes, invisible to readers (its table is not attached yet), and its indexes are built
 * once, sorted, when it is attached: COPY and index build take a tenth of that.
 *
 * Segments are never written again (events are never updated; only erasing a profile deletes its
 * events, wherever they are), so attaching is the whole
 * life of one. Their number is bounded: attaching one more than `maxSegments` folds the smallest into
 * it (its rows copied in before the indexes are built, its tables dropped in the same transaction).
 *
 * This is `config.eventSegments` (by default 100,000 events direct, 4,000,000 a segment, 16 segments).
 */
export interface SegmentPolicy {
  /** Events an import writes into the live partitions before it loads the rest into segments. */
  directRows: number;
  /** Events a segment takes before it is attached and the next one opened. */
  segmentRows: number;
  /** Segments attached at most. */
  maxSegments: number;
}

/** Records, in the attach's transaction, how many of a segment's events were stored already. */
export type RecordDuplicates = (tx: Tx, duplicates: number) => Promise<void>;

/** Serialises attaching (the fold's choice of the smallest segment, and its drop). */
const ATTACH_LOCK = 0x5e9e47;
const partitions = Array.from({ length: CUSTOMER_PARTITIONS }, (_, n) => n);
const segmentTable = (segment: number) => sql.identifier(`customer_events_s${segment}`);
const segmentPart = (segment: number, n: number) => sql.identifier(`customer_events_s${segment}_p${n}`);
const liveParent = (n: number) => sql.identifier(`customer_events_p${n}`);
const columns = sql.raw(EVENT_COPY_COLUMNS.join(', '));

/** Opens a segment: a table hash-partitioned like `customer_events`, not attached to it yet. */
export async function openSegment(db: Db): Promise<number> {
  const [{ id }] = rows<{ id: string | number }>(
    await db.execute(sql`select nextval('customer_event_segments') as id`),
  );
  const segment = Number(id);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create table ${segmentTable(segment)} (
        workspace_id text not null,
        profile_id text not null,
        event text not null,
        at timestamptz not null,
        properties jsonb not null,
        segment bigint not null default ${sql.raw(String(segment))} check (segment = ${sql.raw(String(segment))}),
        ident bigint not null
      ) partition by hash (profile_id)`);
    for (const n of partitions) {
      await tx.execute(sql`
        create table ${segmentPart(segment, n)} partition of ${segmentTable(segment)}
        for values with (modulus ${sql.raw(String(CUSTOMER_PARTITIONS))}, remainder ${sql.raw(String(n))})`);
    }
  });
  return segment;
}

/** Copies events into an open segment (in the caller's transaction, with the batch's progress). */
export async function copyIntoSegment(tx: Tx, segment: number, workspaceId: string, events: EventsByKey) {
  if (!events.size) return;
  await copyFrom(tx, `customer_events_s${segment}`, EVENT_COPY_COLUMNS, eventsCopyText(workspaceId, events));
}

/**
 * A segment's events per profile and key, in a temporary table (dropped at commit): counted before the
 * fold adds rows already counted, and merged into the counts last, so their rows stay locked only for
 * the end of the transaction.
 */
const countSegment = (tx: Tx, segment: number) =>
  tx.execute(sql`
    create temp table segment_counts on commit drop as
    select workspace_id, event, profile_id, count(*) as count from ${segmentTable(segment)}
    group by workspace_id, event, profile_id`);

/** Adds the counted events to the per-profile counts, one statement in key order. */
const addCounts = (tx: Tx) =>
  tx.execute(sql`
    insert into customer_event_counts (workspace_id, event, profile_id, count)
    select workspace_id, event, profile_id, count from segment_counts where count > 0
    order by workspace_id, event, profile_id
    on conflict (workspace_id, event, profile_id) do update
      set count = customer_event_counts.count + excluded.count`);

/** Whether an event of the segment `s` is stored already, in the partitions `where` picks. */
const storedAlready = (where: SQL) => sql`
  exists (select 1 from customer_events e
          where e.ident = s.ident and e.profile_id = s.profile_id and ${where})`;

/**
 * Gives the segment its unique index on the identity: built at once when its events are distinct (an
 * import's are, but for a file that repeats itself); else the repeats are deleted, the first kept.
 */
async function uniqueIdentities(tx: Tx, segment: number): Promise<number> {
  const build = sql`create unique index on ${segmentTable(segment)} (ident, profile_id, segment)`;
  const built = await tx
    .transaction(async (savepoint) => {
      await savepoint.execute(build);
      return true;
    })
    .catch((err: unknown) => {
      if (!isUniqueViolation(err)) throw err;
      return false;
    });
  if (built) return 0;
  // A profile's events are in one partition, where a row's ctid tells the first.
  const repeats = await deleted(
    tx,
    sql`delete from ${segmentTable(segment)} d using ${segmentTable(segment)} k
    where d.ident = k.ident and d.profile_id = k.profile_id and d.ctid > k.ctid returning 1`,
  );
  await tx.execute(build);
  return repeats;
}

/** How many rows a `delete … returning 1` deleted. */
async function deleted(tx: Tx, statement: SQL) {
  const [row] = rows<{ n: string | number }>(
    await tx.execute(sql`with gone as (${statement}) select count(*) as n from gone`),
  );
  return Number(row.n);
}

/** The attached segments, smallest first (by the size of partition 0's table). */
async function attachedSegments(tx: Tx) {
  return rows<{ segment: string | number }>(
    await tx.execute(sql`
      select substring(c.relname from '^customer_events_s([0-9]+)_p0$') as segment
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'customer_events_p0'::regclass and c.relname <> 'customer_events_live_p0'
      order by pg_relation_size(c.oid), c.relname`),
  ).map((row) => Number(row.segment));
}

/**
 * Makes an open segment's events visible, with their counts, in one transaction, each event once: a
 * segment of fewer than `directRows` events is moved into the live partitions as live events are
 * written (not worth partitions of its own); otherwise the events already stored are deleted from it
 * (in attached segments first, then, with live writes held off, in the live partitions), its indexes
 * are built and its partitions attached, after folding in the smallest attached segment when there are
 * `maxSegments` already. Attaching is one at a time, so two imports' segments never both keep an event.
 */
export async function attachSegment(
  db: Db,
  segment: number,
  rowCount: number,
  policy: SegmentPolicy,
  recordDuplicates?: RecordDuplicates,
) {
  const moved = rowCount < policy.directRows;
  const table = segmentTable(segment);
  await db.transaction(async (tx) => {
    if (moved) {
      const stored = await insertStaged(tx, table);
      await tx.execute(sql`drop table ${table}`);
      await recordDuplicates?.(tx, rowCount - stored);
      return;
    }
    await tx.execute(sql`set local enable_partitionwise_aggregate = on`);
    await tx.execute(sql`set local enable_partitionwise_join = on`);
    await tx.execute(sql`select pg_advisory_xact_lock(${ATTACH_LOCK})`);
    // Attached segments change only here, one attach at a time.
    let duplicates = await deleted(
      tx,
      sql`delete from ${table} s where ${storedAlready(sql`e.segment <> 0`)} returning 1`,
    );
    duplicates += await uniqueIdentities(tx, segment);
    await countSegment(tx, segment);
    const attached = await attachedSegments(tx);
    const folded = attached.length >= policy.maxSegments ? attached[0] : undefined;
    if (folded !== undefined) {
      await tx.execute(sql`
        insert into ${table} (${columns})
        select ${columns} from customer_events where segment = ${folded}::int8`);
    }
    await tx.execute(
      sql`create index on ${table} (workspace_id, event, at, profile_id) include (properties)`,
    );
    await tx.execute(sql`create index on ${table} (workspace_id, event, profile_id, at)`);
    // Live writes are held off from here to the commit: each sees the segment attached, or is seen here.
    await tx.execute(sql`select pg_advisory_xact_lock(${LIVE_EVENTS_LOCK})`);
    const [live] = rows<{ n: string | number }>(
      await tx.execute(sql`
        with live as (
          delete from ${table} s where ${storedAlready(sql`e.segment = 0`)}
          returning workspace_id, event, profile_id),
        uncounted as (
          update segment_counts c set count = c.count - l.count
          from (select workspace_id, event, profile_id, count(*) as count from live
                group by workspace_id, event, profile_id) l
          where c.workspace_id = l.workspace_id and c.event = l.event and c.profile_id = l.profile_id)
        select count(*) as n from live`),
    );
    duplicates += Number(live.n);
    for (const n of partitions) {
      await tx.execute(sql`alter table ${table} detach partition ${segmentPart(segment, n)}`);
    }
    await tx.execute(sql`drop table ${table}`);
    for (const n of partitions) {
      await tx.execute(sql`
        alter table ${liveParent(n)} attach partition ${segmentPart(segment, n)}
        for values in (${sql.raw(String(segment))})`);
    }
    await addCounts(tx);
    await recordDuplicates?.(tx, duplicates);
    // Last: dropping a partition locks its parent against readers until the commit.
    if (folded !== undefined) {
      for (const n of partitions) await tx.execute(sql`drop table ${segmentPart(folded, n)}`);
    }
  });
  // As autovacuum would, at once: the visibility map the audience sizes' index-only scans need, and
  // statistics for their plans. VACUUM runs outside a transaction, so another import's attach may
  // have folded the segment away meanwhile: then there is nothing left to vacuum.
  if (moved) return;
  for (const n of partitions) {
    await db.execute(sql`vacuum (analyze) ${segmentPart(segment, n)}`).catch((err: unknown) => {
      if (!isUndefinedTable(err)) throw err;
    });
  }
}

const errorCode = (err: unknown) =>
  (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
const isUniqueViolation = (err: unknown) => errorCode(err) === '23505';

const isUndefinedTable = (err: unknown) => errorCode(err) === '42P01';

/** Drops an open segment and its events (an import whose segment could not be attached). */
export async function dropSegment(db: Db, segment: number) {
  await db.execute(sql`drop table if exists ${segmentTable(segment)}`);
}
