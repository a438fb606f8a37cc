import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@shared/api/delivery';
import type { WebhookEvent } from '@shared/api/webhooks';
import type { Db, Tx } from '../db/client';
import { auditLog } from '../db/schema';
import { announceChanges, type Change, type ItemWritten } from './changes';
import { queuePurge, type DeliveryPurge } from './purges';
import { insertJobsFrom } from '../queue/queue';
import { rowJobs, WEBHOOK_DELIVERY_QUEUE } from '../queue/queues';

/** Who acts: account id, display name and, in a request, the client address. */
export interface Actor {
  id: string;
  name: string;
  address?: string | null;
}

type AuditTargetType =
  | 'item'
  | 'workspace'
  | 'member'
  | 'api-key'
  | 'preview-token'
  | 'write-key'
  | 'webhook'
  | 'schedule'
  | 'import'
  | 'test-send'
  | 'file'
  | 'profile'
  | 'suppression'
  | 'sender'
  | 'sending-domain'
  | 'campaign'
  | 'journey'
  | 'release'
  | 'content-model'
  | 'sso-connection'
  | 'scim-token'
  | 'scim-group';

export interface AuditRecord {
  workspaceId: string;
  user: Actor;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  /** The target's name beside its id: an item's title, a member's name, a key's label, a webhook's URL. */
  label?: string | null;
  schema?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Who acts, as audit rows name them: the account id, the member's display name and the request's address. */
export const actorOf = (access: {
  user: { id: string; address?: string | null };
  member: { displayName: string };
}): Actor => ({
  id: access.user.id,
  name: access.member.displayName,
  address: access.user.address ?? null,
});

/** The name an item goes by in the audit log: its title or name field, when it has one. */
export function itemLabel(data: Record<string, unknown> | null | undefined): string | null {
  for (const key of ['title', 'name']) {
    const value = data?.[key];
    if (typeof value === 'string' && value.trim()) return value.slice(0, 200);
  }
  return null;
}
const ITEM_LABEL_SQL = sql.raw(`left(coalesce(nullif(data->>'title', ''), nullif(data->>'name', '')), 200)`);

/** An item an event is about, at the version the change left it. */
interface ItemRef {
  workspaceId: string;
  schema: string;
  id: string;
  version: number;
}

/** A webhook event to queue for the workspace's subscribed webhooks. */
interface ItemEvent {
  item: ItemRef;
  event: WebhookEvent;
  stage?: string | null;
}

/** A webhook event about a release as a whole: one delivery per subscribed webhook, however many items it holds. */
interface ReleaseEvent {
  release: {
    workspaceId: string;
    id: string;
    stage: string;
    schemas: string[];
    entries: number;
    /** The items it put in the stage (with their version) or took out of it. */
    items: { id: string; schema: string; action: 'publish' | 'unpublish'; version: number | null }[];
  };
  event: Extract<WebhookEvent, `release.${string}`>;
}

/** A webhook event about a change set applied to the content model: the schemas it touched and its operations. */
interface ModelEvent {
  model: {
    workspaceId: string;
    changeId: string;
    baseVersion: number;
    version: number;
    schemas: string[];
    ops: unknown[];
  };
  event: Extract<WebhookEvent, `model.${string}`>;
}

/** What one change to workspace data leaves behind: audit rows, webhook deliveries, change notices, a CDN purge. */
export interface JournalEntry {
  audit?: AuditRecord[];
  events?: (ItemEvent | ReleaseEvent | ModelEvent)[];
  changes?: Change[];
  /** For a change to published copies: the delivered answers' cache keys it made stale. */
  purge?: DeliveryPurge;
}

/**
 * Records a change to workspace data, in the transaction of the change: its audit rows, the deliveries
 * of its webhook events with their jobs (the outbox the sender works through), the notice that drops
 * every cache it touches (changes.ts) and the purge of a CDN in front of the delivery API (purges.ts);
 * a workspace with no cached data changed still gets a `workspace` notice. Every write path goes through here, so
 * none can forget one of them.
 */
export async function journal(tx: Tx | Db, entry: JournalEntry) {
  if (entry.audit?.length) await insertAudit(tx, entry.audit);
  for (const event of entry.events ?? [])
    await tx.execute(
      'release' in event
        ? releaseOutboxRowsOf(event)
        : 'model' in event
          ? modelOutboxRowsOf(event)
          : outboxRowsOf(event),
    );
  if (entry.purge) await queuePurge(tx, entry.purge);
  const changes = [...(entry.changes ?? []), ...itemNoticesOf(entry.audit ?? [])];
  const noticed = new Set(
    changes.map((change) => ('workspaceId' in change ? change.workspaceId : undefined)),
  );
  for (const { workspaceId } of entry.audit ?? []) {
    if (noticed.has(workspaceId)) continue;
    noticed.add(workspaceId);
    changes.push({ kind: 'workspace', workspaceId });
  }
  await announceChanges(tx, ...changes);
}

/** From this many rows on, audit rows go in as one JSON parameter (a release has one per item). */
const BULK_AUDIT_ROWS = 100;

async function insertAudit(tx: Tx | Db, records: AuditRecord[]) {
  if (records.length < BULK_AUDIT_ROWS) {
    await tx.insert(auditLog).values(records.map(auditValues));
    return;
  }
  // One parameter whatever the number of rows: a statement's parameters are limited to 65,535.
  await tx.execute(sql`
    insert into audit_log (workspace_id, user_id, user_name, action, target_type, target_id, label, schema, detail, address)
    select r."workspaceId", r."userId", r."userName", r.action, r."targetType", r."targetId", r.label, r.schema,
      r.detail, r.address
    from jsonb_to_recordset(${JSON.stringify(records.map(auditValues))}::jsonb) as r("workspaceId" text,
      "userId" text, "userName" text, action text, "targetType" text, "targetId" text, label text,
      schema text, detail jsonb, address text)`);
}

/** Past this many items in one write (a release), live streams are told to read their lists again instead. */
const MAX_ITEM_NOTICES = 100;

function itemNoticesOf(audit: AuditRecord[]): Change[] {
  const written = audit.flatMap(itemWrittenOf);
  if (written.length <= MAX_ITEM_NOTICES) return written;
  return [...new Set(written.map((w) => w.workspaceId))].map((workspaceId) => ({
    kind: 'items',
    workspaceId,
  }));
}

/** The live notice of an audited change to an item: the item, its version, the action and who acted. */
function itemWrittenOf(record: AuditRecord): ItemWritten[] {
  if (record.targetType !== 'item' || !record.schema) return [];
  const version = record.detail?.version;
  return [
    {
      kind: 'item',
      workspaceId: record.workspaceId,
      schema: record.schema,
      id: record.targetId,
      version: typeof version === 'number' ? version : null,
      action: record.action,
      actor: { id: record.user.id, name: record.user.name },
    },
  ];
}

/** Announces account-level changes (a user's name, sign-out, revoked sessions), which keep no audit row. */
export const journalAccountChange = (db: Db | Tx, ...changes: Change[]) => announceChanges(db, ...changes);

function auditValues(record: AuditRecord) {
  return {
    workspaceId: record.workspaceId,
    userId: record.user.id,
    userName: record.user.name,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    label: record.label ?? null,
    schema: record.schema ?? null,
    detail: record.detail ?? null,
    address: record.user.address ?? null,
  };
}

/** The columns of a write's row in `input` that `itemJournalCtes` reads (`itemJournalInput` gives them). */
export const ITEM_JOURNAL_INPUT_COLUMNS = `journal_user_id text, journal_user_name text, journal_action text,
  journal_detail jsonb, journal_address text`;

/**
 * The journal of item saves or creates as CTEs of their one statement, reading its `saved` or `created`
 * CTE (so the writes stay one round trip, their audit and outbox rows committing with them): each row
 * gets the audit values of its row in the statement's `input` (`ITEM_JOURNAL_INPUT_COLUMNS`); the
 * event, the same for all, is the placeholder `journalEvent`. Once the statement ran, announce with
 * `itemsWritten`.
 */
export function itemJournalCtes(source: 'saved' | 'created'): SQL[] {
  return [
    sql`, audit as (
      insert into audit_log (workspace_id, user_id, user_name, action, target_type, target_id, label, schema, detail, address)
      select workspace_id, journal_user_id, journal_user_name, journal_action, 'item', id, ${ITEM_LABEL_SQL}, schema,
        jsonb_build_object('version', version) || journal_detail, journal_address
      from (
        select w.*, i.journal_user_id, i.journal_user_name, i.journal_action, i.journal_detail, i.journal_address
        from ${sql.raw(source)} w join input i on i.workspace_id = w.workspace_id and i.schema = w.schema and i.id = w.id
      ) journaled
    )`,
    sql`, webhook_outbox as (${outboxInsert(sql.raw(`${source} s`), sql.placeholder('journalEvent'), null)})`,
    sql`, webhook_jobs as (${deliveryJobs('webhook_outbox')})`,
  ];
}

/** The journal of an item save or create done in one statement (see `itemJournalCtes`): who did what, and its event. */
export interface ItemJournal {
  audit: { action: AuditAction; user: Actor; detail?: Record<string, unknown> };
  event: WebhookEvent;
}

/** A write's journal columns in `input` (see `itemJournalCtes`). */
export const itemJournalInput = ({ audit }: ItemJournal) => ({
  journal_user_id: audit.user.id,
  journal_user_name: audit.user.name,
  journal_action: audit.action,
  journal_detail: audit.detail ?? {},
  journal_address: audit.user.address ?? null,
});

/**
 * The change notices of an item written by a statement that journaled through `itemJournal`: the
 * workspace's item caches, and the write itself for live streams.
 */
export const itemsWritten = (db: Db | Tx, item: ItemRef, journaled: ItemJournal | undefined) =>
  announceChanges(
    db,
    { kind: 'items', workspaceId: item.workspaceId },
    ...(journaled
      ? [
          {
            ...item,
            kind: 'item' as const,
            action: journaled.audit.action,
            actor: { id: journaled.audit.user.id, name: journaled.audit.user.name },
          },
        ]
      : []),
  );

function outboxRowsOf({ item, event, stage }: ItemEvent): SQL {
  const source = sql`(values (${item.workspaceId}::text, ${item.schema}::text, ${item.id}::text, ${item.version}::int)) as s(workspace_id, schema, id, version)`;
  return sql`with outbox as (${outboxInsert(source, event, stage ?? null)}) ${deliveryJobs('outbox')}`;
}

/** The deliveries of a release event to the workspace's webhooks subscribed to it (and to one of its schemas). */
function releaseOutboxRowsOf({ release, event }: ReleaseEvent): SQL {
  return wholeEventOutboxRows(
    release.workspaceId,
    event,
    release.schemas,
    sql`'release', ${release.id}::text, 'stage', ${release.stage}::text, 'entries', ${release.entries}::int,
        'items', ${JSON.stringify(release.items)}::json`,
  );
}

function modelOutboxRowsOf({ model, event }: ModelEvent): SQL {
  return wholeEventOutboxRows(
    model.workspaceId,
    event,
    model.schemas,
    sql`'change', ${model.changeId}::text, 'baseVersion', ${model.baseVersion}::int, 'version', ${model.version}::int,
        'schemas', ${JSON.stringify(model.schemas)}::json, 'ops', ${JSON.stringify(model.ops)}::json`,
  );
}

/**
 * One delivery per active webhook of the workspace subscribed to the event and to one of `schemas` (or
 * to every schema), whose body holds `fields` (pairs for json_build_object) beside the event's own.
 */
function wholeEventOutboxRows(workspaceId: string, event: WebhookEvent, schemas: string[], fields: SQL): SQL {
  const schemaList = sql`${`{${schemas.map((s) => JSON.stringify(s)).join(',')}}`}::text[]`;
  return sql`with outbox as (
    insert into webhook_deliveries (workspace_id, id, webhook_id, event, body)
    select workspace_id, delivery_id, webhook_id, ${event}::text,
      json_build_object('id', delivery_id, 'event', ${event}::text, 'workspace', workspace_id, ${fields},
        'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
    from (
      select w.workspace_id, w.id as webhook_id, gen_random_uuid()::text as delivery_id
      from webhooks w
      where w.workspace_id = ${workspaceId} and w.active and ${event}::text = any(w.events)
        and (w.schemas is null or w.schemas && ${schemaList})
    ) due
    returning workspace_id, id
  ) ${deliveryJobs('outbox')}`;
}

/** A job for each delivery the CTE `outbox` queued (in the same statement, so they commit together). */
const deliveryJobs = (outbox: string) => insertJobsFrom(WEBHOOK_DELIVERY_QUEUE, rowJobs(sql.raw(outbox)));

/**
 * Queues one delivery per active webhook of the item's workspace subscribed to the event (and to its
 * schema), with the body the sender posts; answers the deliveries' keys. `source` is a relation named s: a CTE name gets the alias
 * here, a VALUES list carries it.
 */
function outboxInsert(source: SQL, event: WebhookEvent | Placeholder, stage: string | null): SQL {
  const stageField = stage === null ? sql`` : sql`'stage', ${stage}::text, `;
  return sql`insert into webhook_deliveries (workspace_id, id, webhook_id, event, body)
    select workspace_id, delivery_id, webhook_id, ${event}::text,
      json_build_object('id', delivery_id, 'event', ${event}::text, 'workspace', workspace_id, 'schema', schema,
        'itemId', item_id, 'version', version, ${stageField}'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
    from (
      select s.workspace_id, s.schema, s.id as item_id, s.version, w.id as webhook_id, gen_random_uuid()::text as delivery_id
      from ${source}
      join webhooks w on w.workspace_id = s.workspace_id and w.active and ${event}::text = any(w.events)
        and (w.schemas is null or s.schema = any(w.schemas))
    ) due
    returning workspace_id, id`;
}
