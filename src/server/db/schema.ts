import { sql, type SQLWrapper } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Basics } from '@shared/api/workspaces';
import type { Roles } from '@shared/permissions/permissions';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export type EmailTokenKind = 'verify' | 'reset' | 'change_email';

/**
 * Sign-in attempts per account since its last success (keyed by the SHA-256 of the address typed, whether or not an account has
 * it), shared by every server process: too many within the window lock the address out for the rest of it.
 */
export const signInAttempts = pgTable('sign_in_attempts', {
  emailHash: text('email_hash').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
});

export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<EmailTokenKind>().notNull(),
    email: text('email').notNull(),
    returnTo: text('return_to').notNull().default('/'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.kind)],
);

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  basics: jsonb('basics').$type<Basics>().notNull(),
  roles: jsonb('roles').$type<Roles>().notNull(),
  oobeDone: boolean('oobe_done').notNull().default(false),
  subscription: jsonb('subscription').$type<{ plan: string }>().notNull(),
  version: integer('version').notNull().default(1),
  createdAt: createdAt(),
  createdBy: text('created_by').notNull(),
});

export const members = pgTable(
  'members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(true),
    displayName: text('display_name').notNull(),
    roles: jsonb('roles')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isManager: boolean('is_manager').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('members_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    roles: jsonb('roles')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isManager: boolean('is_manager').notNull().default(false),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    invitedBy: text('invited_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.email] }), index('invitations_email_idx').on(t.email)],
);

/** Analytics and audit events (spec §3 Analytics event doc). workspace_id is '' for events outside a workspace. */
export const events = pgTable(
  'events',
  {
    workspaceId: text('workspace_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    userId: text('user_id').notNull(),
    session: text('session'),
    url: text('url').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('events_type_idx').on(t.workspaceId, t.eventType, t.at),
  ],
);

/** Bulk jobs of a workspace (settings → batches). */
export const batches = pgTable(
  'batches',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull(),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * The spec's `stage-wip`: the current version of every item. `approved_roles` holds the roles that
 * approved the current version (cleared by each new version); it lets "need my approval" filter in SQL.
 * Indexes serve the list screens' keyset pages, newest write first (DESIGN §7).
 */
/**
 * The item's address, in SQL: the first top-level field value carrying a geohash (the server writes
 * one into every address with a latitude and longitude).
 */
export const placeOf = (data: SQLWrapper) =>
  sql`jsonb_path_query_first(${data}, '$.* ? (exists (@.geohash.p_12))')`;
/** The 12-character geohash of the item's address (the near search's index key), in SQL. */
export const placeGeohashOf = (data: SQLWrapper) => sql`((${placeOf(data)} -> 'geohash') ->> 'p_12')`;

export const items = pgTable(
  'items',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    id: text('id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    refs: jsonb('refs')
      .$type<Record<string, ItemReference>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    version: integer('version').notNull(),
    lastWrittenBy: text('last_written_by').notNull(),
    lastWrittenAt: timestamp('last_written_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    hasErrors: boolean('has_errors').notNull().default(false),
    variation: jsonb('variation').$type<Record<string, string>>(),
    approvedRoles: text('approved_roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.schema, t.id] }),
    index('items_schema_recent_idx').on(t.workspaceId, t.schema, t.lastWrittenAt, t.id),
    index('items_recent_idx').on(t.workspaceId, t.lastWrittenAt, t.id),
    index('items_writer_recent_idx').on(t.workspaceId, t.lastWrittenBy, t.lastWrittenAt, t.id),
    // The "near" search (issue 12): the 12-character geohash of the item's address, so the cells
    // covering a circle are index range scans. Only items with an address are in it.
    index('items_place_geohash_idx')
      .on(t.workspaceId, t.schema, sql`(${placeGeohashOf(t.data)} collate "C")`)
      .where(sql`${placeGeohashOf(t.data)} is not null`),
  ],
);

/** What `_references` holds for each referenced item id. */
export interface ItemReference {
  schemaType: string;
  label: string;
  fieldKey: string;
  thumbId?: string;
}

/** Immutable history: the full data of every version of an item; kept when the item is deleted. */
export const itemVersions = pgTable(
  'item_versions',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    num: integer('num').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    by: text('by').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    refs: jsonb('refs').$type<Record<string, ItemReference>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.schema, t.itemId, t.num] })],
);

/**
 * The spec's `live-data/{stage}`: one copy per item and stage. `item_version` follows the item's current
 * version on every save, so "outdated in {stage}" (version < item_version) is a partial index.
 */
export const published = pgTable(
  'published',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    id: text('id').notNull(),
    stage: text('stage').notNull(),
    version: integer('version').notNull(),
    itemVersion: integer('item_version').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    refs: jsonb('refs').$type<Record<string, ItemReference>>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    publishedBy: text('published_by').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.schema, t.id, t.stage] }),
    index('published_stage_recent_idx').on(t.workspaceId, t.stage, t.publishedAt, t.id),
    index('published_outdated_idx')
      .on(t.workspaceId, t.stage, t.publishedAt, t.id)
      .where(sql`${t.version} < ${t.itemVersion}`),
  ],
);

/** The spec's conversations: comments on an item, oldest first. */
export const comments = pgTable(
  'comments',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    by: text('by').notNull(),
    byName: text('by_name').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.schema, t.itemId, t.id] })],
);

/** One approval of one version of an item by one role (spec §3 Approval record). */
export const approvals = pgTable(
  'approvals',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    version: integer('version').notNull(),
    roleId: text('role_id').notNull(),
    roleLabel: text('role_label').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    byId: text('by_id').notNull(),
    byName: text('by_name').notNull(),
    comment: text('comment'),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.schema, t.itemId, t.version, t.roleId] })],
);

/**
 * Uploaded files of a workspace's `assets` store (spec §3 File field value). `dhash` is the perceptual
 * hash the local image analyser compares; `sanity_results` holds the last /sanity/ answer.
 */
export const files = pgTable(
  'files',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    storageName: text('storage_name').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    md5Hash: text('md5_hash').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    focusX: doublePrecision('focus_x').notNull().default(0.5),
    focusY: doublePrecision('focus_y').notNull().default(0.5),
    dhash: text('dhash'),
    sanityResults: jsonb('sanity_results').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.storageName] })],
);

/**
 * Results of the spec's generic visualisation GET (issue 14): the JSON the configured VISUALISATION_URL
 * answered, stored per workspace under the timestamp key of the fetch.
 */
export const visualisationResults = pgTable(
  'visualisation_results',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    result: jsonb('result').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    fetchedBy: text('fetched_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);
