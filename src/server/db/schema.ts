import { sql, type SQLWrapper } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  foreignKey,
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
import type { IngestKeyKind } from '@shared/api/ingest';
import type { UndeclaredKind } from '@shared/api/undeclared';
import type { Roles } from '@shared/permissions/permissions';
import type { RoleRule as SsoRoleRule, SamlSettings, SsoKind } from '@shared/api/sso';
import type { ContentModelDoc, ModelOp, RenamedField } from '@shared/model/types';
import type { JourneyDefinition, PauseLimit } from '@shared/api/journeys';
import type { CampaignExperiment } from '@shared/campaigns/experiment';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The TOTP secret sealed under MARQUEE_SECRET for this account; set by setup, in use once enabled. */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The time step of the last code accepted: a code of that step or an earlier one is refused. */
    totpLastStep: integer('totp_last_step'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** An account's single-use recovery codes for two-factor sign-in, kept as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** Pending two-factor sign-ins already completed, so their signed token is not taken twice (kept until it expires). */
export const usedSignInChallenges = pgTable('used_sign_in_challenges', {
  nonce: text('nonce').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** An account's passkeys (WebAuthn credentials): the public key and the signature counter last seen. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential id, base64url, as the authenticator names it. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

export type WebauthnChallengePurpose = 'register' | 'sign-in' | 'second-factor';

/** WebAuthn challenges handed out and not yet answered: each is taken once, before it expires. */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose').$type<WebauthnChallengePurpose>().notNull(),
  /** The account it was made for; null for a sign-in with a passkey, where the passkey names it. */
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

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
  /** Members must have two-factor sign-in (or come through the workspace's single sign-on) to use it. */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  subscription: jsonb('subscription').$type<{ plan: string }>().notNull(),
  version: integer('version').notNull().default(1),
  /** The version of the workspace's content model; 0 is the built-in one, which has no `content_models` row. */
  modelVersion: integer('model_version').notNull().default(0),
  /** Origins whose pages the preview pane may show and talk to (`scheme://host[:port]`). */
  previewOrigins: text('preview_origins')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  createdBy: text('created_by').notNull(),
});

/** Every version of a workspace's content model but the built-in version 0, as one document. */
export const contentModels = pgTable(
  'content_models',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    doc: jsonb('doc').$type<ContentModelDoc>().notNull(),
    /** Fields renamed in the last 30 days: the delivery API answers their old names too. */
    renamed: jsonb('renamed')
      .$type<RenamedField[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.version] })],
);

/** An applied change set: what it did to the model (ops, and the ops that undo it) and to the items. */
export const contentModelChanges = pgTable(
  'content_model_changes',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    baseVersion: integer('base_version').notNull(),
    version: integer('version').notNull(),
    ops: jsonb('ops').$type<ModelOp[]>().notNull(),
    inverse: jsonb('inverse').$type<ModelOp[]>().notNull(),
    /** The change this one reverted, when it is a revert. */
    reverts: text('reverts'),
    byId: text('by_id').notNull(),
    byName: text('by_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    state: text('state').$type<'running' | 'done'>().notNull(),
    itemsTotal: integer('items_total').notNull().default(0),
    itemsDone: integer('items_done').notNull().default(0),
    /** Per item transformed (first ones only): `{ schema, id, failed? }`. */
    transformed: jsonb('transformed')
      .$type<{ schema: string; id: string; failed?: string[] }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [index('content_model_changes_workspace_idx').on(t.workspaceId, t.version)],
);

/**
 * Values a change took out of items (a removed field, a retyped field's values before conversion), per
 * item and operation, so that reverting the change puts them back.
 */
export const contentModelKept = pgTable(
  'content_model_kept',
  {
    changeId: text('change_id')
      .notNull()
      .references(() => contentModelChanges.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    /** Operation index → the values it replaced or removed. */
    kept: jsonb('kept').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.schema, t.itemId] })],
);

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

/**
 * A workspace's OpenID Connect connection: the client secret sealed under MARQUEE_SECRET for this
 * workspace (services/sealing), the email domains it owns and the rules that map claims to roles.
 */
export const ssoConnections = pgTable('sso_connections', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** OpenID Connect, or SAML 2.0: then `issuer` is the identity provider's entity id and `saml` the rest. */
  kind: text('kind').$type<SsoKind>().notNull().default('oidc'),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  domains: text('domains').array().notNull(),
  allowPassword: boolean('allow_password').notNull().default(true),
  roleRules: jsonb('role_rules')
    .$type<SsoRoleRule[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  saml: jsonb('saml').$type<SamlSettings>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
});

/** SAML assertions already used to sign in, kept until they expire, so none is taken twice. */
export const samlAssertions = pgTable(
  'saml_assertions',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.assertionId] })],
);

/** An email domain is owned by at most one workspace's connection, so sign-in knows where to send it. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => ssoConnections.workspaceId, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_domains_workspace_idx').on(t.workspaceId)],
);

/** An account's identity at a provider: bound to the issuer and its subject, never to an email. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.issuer, t.subject] }),
    uniqueIndex('sso_identities_user_key').on(t.workspaceId, t.userId),
  ],
);

/**
 * A workspace's SCIM tokens, with which its identity provider provisions members (`/scim/v2/{ws}/…`):
 * only the SHA-256 of the token is kept; a token belongs to the workspace, not to the manager who made it.
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** The identity provider's name, e.g. "Entra ID": audit rows of its changes name it. */
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex('scim_tokens_hash_key').on(t.tokenHash),
  ],
);

/**
 * A SCIM User of a workspace as its identity provider keeps it: the attributes it sent (`attributes`,
 * core and enterprise, without id, meta and groups), with the filterable ones in columns. `userId` is the
 * account once one is known; before that the person has an invitation to `email`.
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    userName: text('user_name').notNull(),
    externalId: text('external_id'),
    /** The primary (else first) address, lower case. */
    email: text('email'),
    displayName: text('display_name'),
    active: boolean('active').notNull().default(true),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull(),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex('scim_users_user_name_key').on(t.workspaceId, sql`lower(${t.userName})`),
    index('scim_users_email_idx').on(t.workspaceId, t.email),
    index('scim_users_user_idx').on(t.workspaceId, t.userId),
  ],
);

/** A SCIM Group of a workspace: its display name and external id are what the role rules match. */
export const scimGroups = pgTable(
  'scim_groups',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    displayName: text('display_name').notNull(),
    externalId: text('external_id'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex('scim_groups_display_name_key').on(t.workspaceId, sql`lower(${t.displayName})`),
  ],
);

export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    workspaceId: text('workspace_id').notNull(),
    groupId: text('group_id').notNull(),
    scimUserId: text('scim_user_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.groupId, t.scimUserId] }),
    index('scim_group_members_user_idx').on(t.workspaceId, t.scimUserId),
    foreignKey({
      columns: [t.workspaceId, t.groupId],
      foreignColumns: [scimGroups.workspaceId, scimGroups.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.workspaceId, t.scimUserId],
      foreignColumns: [scimUsers.workspaceId, scimUsers.id],
    }).onDelete('cascade'),
  ],
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
    state: text('state').$type<'queued' | 'running' | 'done' | 'done with errors' | 'failed'>().notNull(),
    /** The uploaded file's name, when there is one. */
    fileName: text('file_name'),
    /** Rows (or files) seen so far: processed + failed. */
    total: integer('total').notNull().default(0),
    /** Rows taken (the API's `processed`): stored, or skipped as duplicates. */
    done: integer('done').notNull().default(0),
    /** Rows taken that were not stored: an event stored already, a profile row that changes nothing. */
    duplicates: integer('duplicates').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** The body's length when the client sent one, and how much of it has been read: the progress bar. */
    bytesTotal: bigint('bytes_total', { mode: 'number' }),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    /** The first 100 row errors: line number and message. */
    errors: jsonb('errors').$type<{ line: number; message: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('batches_recent_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Every row error of a batch, grouped as written: one row per message per chunk (or progress report)
 * with the lines it refused, in order. Grouped by message for the batches page, unnested for the CSV.
 */
export const batchErrors = pgTable(
  'batch_errors',
  {
    workspaceId: text('workspace_id').notNull(),
    batchId: text('batch_id').notNull(),
    message: text('message').notNull(),
    firstLine: integer('first_line').notNull(),
    lines: integer('lines').array().notNull(),
  },
  (t) => [
    index('batch_errors_batch_idx').on(t.workspaceId, t.batchId, t.message),
    foreignKey({
      columns: [t.workspaceId, t.batchId],
      foreignColumns: [batches.workspaceId, batches.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The customer tables (profiles, their events and event counts) are each split into this many hash
 * partitions on the profile id (migration 0013; drizzle has no PARTITION BY), so one profile's rows sit
 * in partitions of the same number. An audience size is then a sum over the partitions, each pair of
 * profile and event partitions joined on its own: the partitions run in parallel and hash a quarter of
 * the profiles each (bench at 1,000,000 profiles and 10,000,000 events on two cores, p50: age >= 40
 * 411 → 233–300 ms, TOTAL with a where 1,203 → 926–1,105 ms, visits in 2 months or an audience
 * 1,965 → 1,281–1,551 ms; in psql 2 and 8 partitions were no faster than 4, 16 slower).
 */
export const CUSTOMER_PARTITIONS = 4;

/**
 * Imported customer profiles: an external id and attribute values keyed by the `key` of the
 * workspace's customer-profile-attribute items, typed by their attributeType (dates as ISO strings).
 */
export const customerProfiles = pgTable(
  'customer_profiles',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The profile's email consent: subscribed, unsubscribed or unknown (what campaigns read). */
    emailConsent: text('email_consent').notNull().default('unknown'),
    /** When and how the consent last changed (an import, a member's edit, the API); null while never set. */
    emailConsentAt: timestamp('email_consent_at', { withTimezone: true }),
    emailConsentSource: text('email_consent_source'),
  },
  // Search (`profiles-repository.ts`) reads a trigram GIN index over the id and the string attribute
  // values, lowercased: `customer_profiles_search_idx`, added by hand in migration 0021 (drizzle has no
  // operator class on an expression).
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * A workspace's suppression list: profile ids and email addresses that must not come back or be
 * written to. Imports and live tracking refuse a listed profile id; campaigns skip a listed address
 * or profile. Reasons: unsubscribed, bounced, complained, erased (an erased profile kept out) or
 * manual (added by hand).
 */
export const customerSuppressions = pgTable(
  'customer_suppressions',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    profileId: text('profile_id'),
    /** Lowercased. */
    email: text('email'),
    reason: text('reason').notNull(),
    note: text('note'),
    createdAt: createdAt(),
    createdBy: text('created_by'),
    createdByName: text('created_by_name'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    uniqueIndex('customer_suppressions_profile_key')
      .on(t.workspaceId, t.profileId)
      .where(sql`${t.profileId} is not null`),
    uniqueIndex('customer_suppressions_email_key')
      .on(t.workspaceId, t.email)
      .where(sql`${t.email} is not null`),
    index('customer_suppressions_recent_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Behavioural events of customer profiles: the `key` of a behavioral-event item, when, and properties
 * typed by that item's properties table. Two indexes serve the audience compiler's per-profile
 * aggregates, both read index-only: `customer_events_window_idx` (workspace_id, event, at, profile_id)
 * INCLUDE (properties) the rules over a look-back window, where and TOTAL included (drizzle has no
 * INCLUDE: migration 0010 adds it by hand); `customer_events_event_profile_idx` (workspace_id, event,
 * profile_id, at) the rules over all time, streamed in profile order, and a profile's latest events
 * (one index probe per event key).
 */
export const customerEvents = pgTable(
  'customer_events',
  {
    // No foreign key: its per-row check cost a bulk load as much as an index (COPY of 1,000,000 events
    // 15.4 s → 21.0 s); imports and tracking write only into a workspace they have just read, and
    // workspaces are never deleted.
    // No key of its own either: nothing reads an event by one, and its index cost every insert.
    workspaceId: text('workspace_id').notNull(),
    profileId: text('profile_id').notNull(),
    event: text('event').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    /** 0 for the live partitions; a large import's own partitions otherwise (`customers/segments.ts`). */
    segment: bigint('segment', { mode: 'number' }).notNull().default(0),
    /**
     * The event's identity (`customers/event-identity.ts`): each is stored once per profile. A unique
     * index must hold the partition keys, so `customer_events_ident_idx` is unique per segment; the
     * write path keeps it unique across segments (`insertEvents`, `attachSegment`).
     */
    ident: bigint('ident', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    index('customer_events_window_idx').on(t.workspaceId, t.event, t.at, t.profileId),
    index('customer_events_event_profile_idx').on(t.workspaceId, t.event, t.profileId, t.at),
    uniqueIndex('customer_events_ident_idx').on(t.ident, t.profileId, t.segment),
  ],
);

/**
 * Each profile's number of events per event key, kept by `insertEvents` in the transaction of every
 * event insert (the only way events are written; an erasure deletes a profile's events and counts
 * together): only the events it stored count, never those already there. It serves the audience
 * compiler's all-time COUNT rules without a where clause: the count at asOf is this count minus the
 * profile's events of that key later than asOf, read from `customer_events_window_idx` (a range that is
 * empty or tiny for an asOf of now), so the rule reads one row per profile instead of every event.
 */
export const customerEventCounts = pgTable(
  'customer_event_counts',
  {
    workspaceId: text('workspace_id').notNull(),
    event: text('event').notNull(),
    profileId: text('profile_id').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.event, t.profileId] })],
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
    /**
     * The words of the item that the list's search looks in (items/search-text.ts), written with every
     * save. Null until it is computed: rows stored before it existed, and rows a content-model change
     * rewrote, until the search-text job reaches them.
     */
    searchText: text('search_text'),
    /** The version of the workspace's content model the data is in (model/migrate.ts brings it up). */
    modelVersion: integer('model_version').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.schema, t.id] }),
    index('items_schema_recent_idx').on(t.workspaceId, t.schema, t.lastWrittenAt, t.id),
    index('items_recent_idx').on(t.workspaceId, t.lastWrittenAt, t.id),
    index('items_writer_recent_idx').on(t.workspaceId, t.lastWrittenBy, t.lastWrittenAt, t.id),
    // The dashboard's counts per schema and approvals waiting per role, read from the index alone.
    index('items_schema_approvals_idx').on(t.workspaceId, t.schema, t.approvedRoles),
    // The "near" search: the 12-character geohash of the item's address, so the cells
    // covering a circle are index range scans. Only items with an address are in it.
    index('items_place_geohash_idx')
      .on(t.workspaceId, t.schema, sql`(${placeGeohashOf(t.data)} collate "C")`)
      .where(sql`${placeGeohashOf(t.data)} is not null`),
    // The search: any part of an item's words is a trigram index scan (pg_trgm, as profile search).
    index('items_search_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // The rows whose words are still to be computed, for the search-text job and the search's fallback.
    index('items_search_pending_idx')
      .on(t.workspaceId, t.schema)
      .where(sql`${t.searchText} is null`),
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
    /** The model version the version was saved in; reads move renamed fields to their new names. */
    modelVersion: integer('model_version').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.schema, t.itemId, t.num] }),
    // The dashboard's recent changes by member: only the last 30 days of history are read.
    index('item_versions_recent_idx').on(t.workspaceId, t.at, t.schema, t.by),
  ],
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
    /** The value of the schema's name-slug field, if it has one (the delivery API looks items up by it). */
    slug: text('slug'),
    /** The other slugs this item had in this stage, oldest first, so a website can redirect old URLs. */
    previousSlugs: text('previous_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The version of the workspace's content model the copy's data is in. */
    modelVersion: integer('model_version').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.schema, t.id, t.stage] }),
    index('published_stage_recent_idx').on(t.workspaceId, t.stage, t.publishedAt, t.id),
    // The delivery API's default order (newest first) and keyset pages of one schema.
    index('published_delivery_idx').on(t.workspaceId, t.stage, t.schema, t.publishedAt, t.id),
    index('published_slug_idx').on(t.workspaceId, t.stage, t.schema, t.slug),
    // Slugs of the other locales (`data._locales[tag][slug]`), for by-slug with ?locale=: only copies
    // that hold locales are in it, so workspaces without them pay nothing.
    index('published_locale_values_idx')
      .using('gin', sql`(${t.data} -> '_locales') jsonb_path_ops`)
      .where(sql`${t.data} ? '_locales'`),
    index('published_outdated_idx')
      .on(t.workspaceId, t.stage, t.publishedAt, t.id)
      .where(sql`${t.version} < ${t.itemVersion}`),
    // The dashboard's publishing activity: only the last 30 days of publishes are read.
    index('published_recent_idx').on(t.workspaceId, t.publishedAt, t.schema),
  ],
);

/**
 * Every slug an item was published under in a stage: kept after unpublishing, so a later publish still
 * lists the old URLs among its previousSlugs; removed with the item.
 */
export const publishedSlugs = pgTable(
  'published_slugs',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    schema: text('schema').notNull(),
    slug: text('slug').notNull(),
    id: text('id').notNull(),
    firstPublishedAt: timestamp('first_published_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.stage, t.schema, t.slug, t.id] }),
    index('published_slugs_item_idx').on(t.workspaceId, t.schema, t.id),
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
 * Test sends of email templates: who sent what to whom through which provider, and how it
 * went. The rate limit counts a workspace's rows of the last hour, so it holds across server processes.
 */
export const testSends = pgTable(
  'test_sends',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: bigserial('id', { mode: 'number' }).notNull(),
    /** The email item sent, or null for a send of given content (`/fun/testSend/…`). */
    itemId: text('item_id'),
    provider: text('provider').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    by: text('by').notNull(),
    byName: text('by_name').notNull(),
    /** sending, sent or failed. */
    status: text('status').notNull(),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('test_sends_at').on(t.workspaceId, t.at),
    index('test_sends_item').on(t.workspaceId, t.itemId, t.at),
  ],
);

/** Delivery API keys of a workspace: only the SHA-256 of the key is kept; `stages` are the stage values it may read. */
export const apiKeys = pgTable(
  'api_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    stages: text('stages').array().notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** May read a release's content before it is published (`?release={id}`). */
    preview: boolean('preview').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] }), uniqueIndex('api_keys_hash_key').on(t.keyHash)],
);

/**
 * Preview tokens: what a previewed page reads drafts with (`?preview=draft`). The token itself is
 * signed and names this row, which says whose it is, what it may read and until when, and whether it
 * was revoked.
 */
export const previewTokens = pgTable(
  'preview_tokens',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    /** The scope: a schema, an item of it, a release; none of them for the whole workspace. */
    schema: text('schema'),
    itemId: text('item_id'),
    releaseId: text('release_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * Ingest keys of a workspace for events from websites, apps and servers (`/ingest/v1/…`): only the
 * SHA-256 of the key is kept; `origins` are the browser origins that may send with a write key (empty:
 * any). A server key is never used from a browser and may overwrite protected attributes.
 */
export const writeKeys = pgTable(
  'write_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    /** 'write': a website's or app's key, sent to browsers; 'server': a secret kept on servers. */
    kind: text('kind').$type<IngestKeyKind>().notNull().default('write'),
    origins: text('origins').array().notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Refuses events, properties and attributes the workspace has not declared, instead of keeping them. */
    strict: boolean('strict').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] }), uniqueIndex('write_keys_hash_key').on(t.keyHash)],
);

/**
 * What ingestion kept that the workspace has not declared: per event key, property (with the event
 * it came with; '' for events and attributes) or attribute key, and per type of value sent (''
 * for an event itself), how many messages sent it and when first and last. An array attribute keeps
 * up to 100 of the texts seen, the options it is declared with. Names that are declared since stay
 * (they are left out when listed and counted); each workspace keeps a bounded number of the others
 * (`UNDECLARED_LIMITS`).
 */
export const customerUndeclared = pgTable(
  'customer_undeclared',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<UndeclaredKind>().notNull(),
    event: text('event').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    examples: text('examples').array(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.kind, t.event, t.name, t.type] })],
);

/**
 * Who did what to which item, role, member, key or webhook, when and from which address. Rows are
 * written in the same transaction as the change they describe.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: text('user_id').notNull(),
    userName: text('user_name').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** The target's name when the change was made (an item's title, a member's name, a key's label). */
    label: text('label'),
    schema: text('schema'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    address: text('address'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('audit_log_recent_idx').on(t.workspaceId, t.at, t.id),
    // Whether an item was ever published, though unpublished since: its name-slugs no longer follow the name.
    index('audit_log_item_published_idx')
      .on(t.workspaceId, t.schema, t.targetId)
      .where(sql`${t.action} = 'item.published'`),
  ],
);

/** Webhooks of a workspace: events to send, an optional schema filter, and the secret that signs each delivery. */
export const webhooks = pgTable(
  'webhooks',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** Only items of these schemas; null sends every schema. */
    schemas: text('schemas').array(),
    /** The signing secret, sealed with AES-256-GCM under MARQUEE_SECRET (lib/secret-box). */
    secret: text('secret').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * The transactional outbox of webhooks and their delivery log: a row is written in the transaction of the
 * change that causes it, then sent by the job worker (claimed with FOR UPDATE SKIP LOCKED) until it
 * succeeds or runs out of tries. `body` is the exact JSON that is signed and sent.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    workspaceId: text('workspace_id').notNull(),
    id: text('id').notNull(),
    webhookId: text('webhook_id').notNull(),
    event: text('event').notNull(),
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    tries: integer('tries').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({
      columns: [t.workspaceId, t.webhookId],
      foreignColumns: [webhooks.workspaceId, webhooks.id],
    }).onDelete('cascade'),
    index('webhook_deliveries_log_idx').on(t.workspaceId, t.webhookId, t.createdAt),
    index('webhook_deliveries_due_idx')
      .on(t.nextAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The outbox of CDN purges (`DELIVERY_PURGE_URL`): a row with the cache keys a publish, unpublish or
 * delete made stale, written in its transaction (only when purging is configured), then sent by the
 * job worker, several rows at once, until the purge endpoint accepts them (the row is then deleted)
 * or the tries run out (`failed`). No foreign key: a purge outlives what it is about.
 */
export const deliveryPurges = pgTable(
  'delivery_purges',
  {
    workspaceId: text('workspace_id').notNull(),
    id: text('id')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    keys: text('keys').array().notNull(),
    status: text('status').$type<'pending' | 'failed'>().notNull().default('pending'),
    tries: integer('tries').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('delivery_purges_due_idx')
      .on(t.nextAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Publishes and unpublishes planned for a time, per stage. The job worker claims due rows (FOR UPDATE
 * SKIP LOCKED, then a lease), runs them with the rights of the member who planned them and records
 * the outcome: done, or refused with the reason (approvals missing, rights withdrawn).
 */
export const schedules = pgTable(
  'schedules',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    stage: text('stage').notNull(),
    action: text('action').$type<'publish' | 'unpublish'>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    status: text('status')
      .$type<'pending' | 'running' | 'done' | 'refused' | 'cancelled'>()
      .notNull()
      .default('pending'),
    reason: text('reason'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    ranAt: timestamp('ran_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('schedules_item_idx').on(t.workspaceId, t.schema, t.itemId),
    index('schedules_due_idx')
      .on(t.at)
      .where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/**
 * Results of the spec's generic visualisation GET: the JSON the configured VISUALISATION_URL
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

/**
 * Audience sizes over time (the dashboard): each audience's size recorded once a day (the job
 * worker) and again whenever the audience list computes every size, so the dashboard reads stored points.
 */
export const audienceSizes = pgTable(
  'audience_sizes',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    audienceId: text('audience_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    size: integer('size'),
    profiles: integer('profiles').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.audienceId, t.day] }),
    index('audience_sizes_day_idx').on(t.workspaceId, t.day),
  ],
);

/** The From identities of a workspace's campaigns (Settings › Sending); managers write, members read. */
export const senders = pgTable(
  'senders',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    fromName: text('from_name').notNull(),
    fromAddress: text('from_address').notNull(),
    replyTo: text('reply_to'),
    /** The domain of from_address, lower case: the sending_domains row its mail is signed with. */
    domain: text('domain').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

/**
 * A domain the workspace sends from: the DKIM key pair Marquee generated for it (the private key sealed
 * under MARQUEE_SECRET for this workspace and domain) and what the last DNS check found. The row stays
 * when its last sender goes, so a sender added again keeps the key already published.
 */
export const sendingDomains = pgTable(
  'sending_domains',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    selector: text('selector').notNull(),
    /** The public key as published in the DKIM record's p= (base64 of the SubjectPublicKeyInfo DER). */
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    problems: text('problems')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.domain] })],
);

/**
 * A workspace's sending settings: the postal address every campaign's footer carries, the attribute
 * campaigns read addresses from, and whether they go to profiles whose consent is unknown. A workspace
 * without a row has the defaults: no address, `email`, not to unknown consent.
 */
export const sendingSettings = pgTable('sending_settings', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  postalAddress: text('postal_address').notNull().default(''),
  emailAttribute: text('email_attribute').notNull().default('email'),
  mailUnknownConsent: boolean('mail_unknown_consent').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  updatedBy: text('updated_by').notNull(),
});

/**
 * What a campaign send froze when it was asked for: the email's content, the sender and the postal
 * address, so editing the campaign or its template during a send changes nothing already under way.
 */
export interface SendContent {
  subject: string;
  preheader: string;
  html: string;
  text: string;
  fromName: string;
  fromAddress: string;
  replyTo: string | null;
  postalAddress: string;
  /** Opens and clicks recorded (the campaign's setting when the send was asked for). */
  tracking: boolean;
}

/**
 * One send of a campaign: a snapshot of its audience's reachable members (`campaign_recipients`),
 * worked through in chunks (`campaign_chunks`). States: queued (waiting for its time or its snapshot),
 * sending, paused, done, cancelled. The counts are kept by the transactions that change recipients.
 */
export const campaignSends = pgTable(
  'campaign_sends',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    campaignId: text('campaign_id').notNull(),
    campaignVersion: integer('campaign_version').notNull(),
    emailId: text('email_id').notNull(),
    emailVersion: integer('email_version').notNull(),
    audienceId: text('audience_id').notNull(),
    senderId: text('sender_id').notNull(),
    /**
     * Set for a journey's email step: recipients are added as profiles reach the step, and the send
     * stays `sending` while the journey runs (its campaign_id is the journey's id).
     */
    journeyId: text('journey_id'),
    /**
     * Set for the sends of a campaign's A/B test (`campaign_experiments`): `variant` is the variant's
     * letter for a test send, `winner` for the send of the winning variant to the rest.
     */
    experimentId: text('experiment_id'),
    variant: text('variant'),
    /** smtp or sendgrid. */
    provider: text('provider').notNull(),
    /** Sent again to every member; otherwise only to members no earlier send of the campaign reached. */
    everyone: boolean('everyone').notNull().default(false),
    state: text('state').notNull(),
    content: jsonb('content').$type<SendContent>().notNull(),
    /** When the snapshot is due (the campaign's send time, or when it was asked for). */
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    /** Set once the audience was snapshotted into campaign_recipients. */
    snapshotAt: timestamp('snapshot_at', { withTimezone: true }),
    /** The audience's members at the snapshot, before suppressed, unsubscribed and address-less ones were left out. */
    audienceSize: integer('audience_size').notNull().default(0),
    recipients: integer('recipients').notNull().default(0),
    /** Reachable members left out at the snapshot because an earlier send of the campaign reached them. */
    alreadyReceived: integer('already_received').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Recipients whose message went out but whose acceptance the server never confirmed. */
    unconfirmed: integer('unconfirmed').notNull().default(0),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('campaign_sends_campaign_idx').on(t.workspaceId, t.campaignId, t.createdAt),
    index('campaign_sends_due_idx')
      .on(t.sendAt)
      .where(sql`${t.state} = 'queued'`),
  ],
);

/**
 * A send's recipients, numbered from 1 in profile order. `status`: pending; sending (in flight: its
 * message's last part is going or gone to the provider, whose acceptance is awaited); sent (the
 * provider accepted it: SMTP's 250 after DATA, a 2xx from the API); unconfirmed (it was in flight
 * when its process died or the connection broke, so nobody knows whether the provider took it); or
 * failed (a permanent refusal, `error` saying why). Tracking and unsubscribe tokens name a recipient by its
 * number, never by its profile id or address. No foreign key: a snapshot writes 500,000 rows at once.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    workspaceId: text('workspace_id').notNull(),
    sendId: text('send_id').notNull(),
    n: integer('n').notNull(),
    profileId: text('profile_id').notNull(),
    email: text('email').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.sendId, t.n] }),
    // Erasing a profile removes it from every send (`eraseProfile`).
    index('campaign_recipients_profile_idx').on(t.workspaceId, t.profileId),
  ],
);

/**
 * The units of a send's work: recipients first_n..last_n. A process claims a chunk with a lease it
 * renews while it works; a chunk whose lease ran out (its process died) is taken over, and its
 * recipients already sent are skipped. `not_before` holds a chunk back after a provider asked to slow down.
 */
export const campaignChunks = pgTable(
  'campaign_chunks',
  {
    workspaceId: text('workspace_id').notNull(),
    sendId: text('send_id').notNull(),
    firstN: integer('first_n').notNull(),
    lastN: integer('last_n').notNull(),
    done: boolean('done').notNull().default(false),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    claimedBy: text('claimed_by'),
    notBefore: timestamp('not_before', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.sendId, t.firstN] }),
    index('campaign_chunks_open_idx')
      .on(t.sendId, t.firstN)
      .where(sql`not ${t.done}`),
  ],
);

/**
 * A campaign's A/B test as sent: the experiment as the campaign's version had it (`settings`), one
 * test send per variant (`campaign_sends.experiment_id`), and the winner's send to the rest once it is
 * picked. States: testing (the test sends go out; at `decide_at` the winner is picked), decided
 * (`winner`, `reason` and `winner_send_id` set), cancelled (a test send was cancelled: no winner).
 */
export const campaignExperiments = pgTable(
  'campaign_experiments',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    campaignId: text('campaign_id').notNull(),
    campaignVersion: integer('campaign_version').notNull(),
    settings: jsonb('settings').$type<CampaignExperiment>().notNull(),
    state: text('state').notNull().default('testing'),
    /** When the audience was split and the test sends' recipients written. */
    testedAt: timestamp('tested_at', { withTimezone: true }),
    /** When the winner is due to be picked: `waitHours` after the split. */
    decideAt: timestamp('decide_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    winner: text('winner'),
    reason: text('reason'),
    winnerSendId: text('winner_send_id'),
    /** The audience's members held out at the split. */
    holdout: integer('holdout').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('campaign_experiments_due_idx')
      .on(t.decideAt)
      .where(sql`${t.state} = 'testing'`),
  ],
);

/** The members an experiment held out of every send, for the conversion lift. No foreign key, as recipients. */
export const campaignHoldouts = pgTable(
  'campaign_holdouts',
  {
    workspaceId: text('workspace_id').notNull(),
    experimentId: text('experiment_id').notNull(),
    profileId: text('profile_id').notNull(),
    email: text('email').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.experimentId, t.profileId] }),
    index('campaign_holdouts_profile_idx').on(t.workspaceId, t.profileId),
  ],
);

/**
 * The send rate each provider allows, shared by every process: `next_at` is when the next unclaimed
 * message may go. A process claims a few messages' time at once and spaces them out itself.
 */
export const campaignRate = pgTable('campaign_rate', {
  provider: text('provider').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

/** The links of a send's message, numbered from 1: a click token names a link by its number. */
export const campaignLinks = pgTable(
  'campaign_links',
  {
    workspaceId: text('workspace_id').notNull(),
    sendId: text('send_id').notNull(),
    idx: integer('idx').notNull(),
    url: text('url').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.sendId, t.idx] })],
);

/**
 * What recipients did with a send: open, click (per link; `link` 0 for the rest), bounce, complaint,
 * unsubscribe. One row per recipient, kind and link, with the first time and how many times.
 */
export const campaignEngagement = pgTable(
  'campaign_engagement',
  {
    workspaceId: text('workspace_id').notNull(),
    sendId: text('send_id').notNull(),
    n: integer('n').notNull(),
    kind: text('kind').notNull(),
    link: integer('link').notNull().default(0),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
    count: integer('count').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.sendId, t.n, t.kind, t.link] }),
    index('campaign_engagement_kind_idx').on(t.workspaceId, t.sendId, t.kind, t.firstAt),
  ],
);

/**
 * A release: items published (or unpublished) together in one stage, all or nothing. States: draft
 * (entries may change), published, reverted (its previous copies restored; it may be published again).
 * `updated_at` is the version a save is based on (409 when stale).
 */
export const releases = pgTable(
  'releases',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    stage: text('stage').notNull(),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    publishAtTz: text('publish_at_tz'),
    state: text('state').$type<'draft' | 'published' | 'reverted'>().notNull().default('draft'),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    updatedBy: text('updated_by').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: text('published_by'),
    /**
     * The scheduled publish at `publish_at`: `pending` until its job claims it (`running`, held until
     * `lease_until`), then `done` or `refused` with `last_error`; null when the release has no time. It
     * runs with the rights of `scheduled_by` (who last set the time) as they are when it runs. A change of
     * its entries or stage by anyone else sets `cleared` (`last_error` says who): it does not run until
     * someone schedules it again.
     */
    scheduleStatus: text('schedule_status').$type<'pending' | 'running' | 'done' | 'refused' | 'cleared'>(),
    scheduledBy: text('scheduled_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    ranAt: timestamp('ran_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    index('releases_recent_idx').on(t.workspaceId, t.updatedAt, t.id),
    index('releases_due_idx')
      .on(t.publishAt)
      .where(sql`${t.scheduleStatus} in ('pending', 'running')`),
  ],
);

/**
 * An item in a release: at a pinned version, or the latest at publish time when `version` is null.
 * `previous_version` is the version that was in the stage before the release published it (null when
 * there was none), so a revert can restore it.
 */
export const releaseEntries = pgTable(
  'release_entries',
  {
    workspaceId: text('workspace_id').notNull(),
    releaseId: text('release_id').notNull(),
    itemId: text('item_id').notNull(),
    schema: text('schema').notNull(),
    version: integer('version'),
    action: text('action').$type<'publish' | 'unpublish'>().notNull().default('publish'),
    previousVersion: integer('previous_version'),
    /** The version the release put in the stage (null for an unpublish). */
    publishedVersion: integer('published_version'),
    /** Who added the entry or last changed its version or action (null for entries from before it was kept). */
    addedBy: text('added_by'),
    addedByName: text('added_by_name'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.releaseId, t.schema, t.itemId] }),
    foreignKey({
      columns: [t.workspaceId, t.releaseId],
      foreignColumns: [releases.workspaceId, releases.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Soft edit locks (server/live): who is editing an item, from which tab, until when. A lock helps
 * people; saves are still checked against the version (409 when stale). One row per item at most.
 */
export const itemLocks = pgTable(
  'item_locks',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    schema: text('schema').notNull(),
    itemId: text('item_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userName: text('user_name').notNull(),
    tab: text('tab').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.schema, t.itemId] })],
);

/**
 * A started version of a journey: its definition as started (editing the item makes a new draft; this
 * stays), whether it runs, the event keys that concern it, and the campaign send of each email step.
 */
export const journeyStarts = pgTable(
  'journey_starts',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    journeyId: text('journey_id').notNull(),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<JourneyDefinition>().notNull(),
    /** running, paused or stopped. */
    state: text('state').notNull(),
    /** The entry's, the goal's and the waits' event keys: an event of another key concerns no run. */
    eventKeys: text('event_keys').array().notNull(),
    /** The campaign send of each email step, by step id. */
    sends: jsonb('sends').$type<Record<string, string>>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    startedBy: text('started_by').notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    /** What a resume does with a wait further past its time than the limit (null: it runs). */
    pauseLimit: jsonb('pause_limit').$type<PauseLimit>(),
    /** The last resume: a task due more than the pause limit before it was held by the pause. */
    resumedAt: timestamp('resumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.journeyId, t.version] }),
    index('journey_starts_live_idx')
      .on(t.workspaceId)
      .where(sql`${t.state} <> 'stopped'`),
  ],
);

/** One profile's way through one version of a journey, from entry to exit. */
export const journeyRuns = pgTable(
  'journey_runs',
  {
    workspaceId: text('workspace_id').notNull(),
    id: text('id').notNull(),
    journeyId: text('journey_id').notNull(),
    version: integer('version').notNull(),
    profileId: text('profile_id').notNull(),
    /** active, finished (an exit step or a path's end), converted (the goal), stopped. */
    state: text('state').notNull(),
    /** The step the run ended at (null while active, or when stopped before its first step). */
    exitStep: text('exit_step'),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    // A profile is in a journey at most once at a time, whichever process enters it.
    uniqueIndex('journey_runs_active_idx')
      .on(t.workspaceId, t.journeyId, t.profileId)
      .where(sql`${t.state} = 'active'`),
    // The re-entry rule's look-up, and an erasure's (by profile).
    index('journey_runs_profile_idx').on(t.workspaceId, t.profileId, t.journeyId, t.enteredAt),
  ],
);

/**
 * A run's visit of a step, numbered along its way (`seq`): written once by the step before it, due at
 * `due_at` (a wait's end, a wait-for-event's timeout), done once by the job that claims it.
 */
export const journeyTasks = pgTable(
  'journey_tasks',
  {
    workspaceId: text('workspace_id').notNull(),
    runId: text('run_id').notNull(),
    seq: integer('seq').notNull(),
    journeyId: text('journey_id').notNull(),
    version: integer('version').notNull(),
    profileId: text('profile_id').notNull(),
    stepId: text('step_id').notNull(),
    /** due, done or cancelled (the run ended while it waited). */
    state: text('state').notNull().default('due'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** A wait-for-event step's event key: the event ends the wait early through its `event` exit. */
    waitsFor: text('waits_for'),
    /** The exit the step took. */
    exit: text('exit'),
    /** How the run left the journey here: finished, converted or stopped. */
    ended: text('ended'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** Tries a webhook step made. */
    tries: integer('tries').notNull().default(0),
    /** What became of the step where it says more than its exit: deferred, expired, skipped, a webhook's answer. */
    outcome: text('outcome'),
    /** When an email step added the profile to its send: the caps count these. */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.runId, t.seq] }),
    index('journey_tasks_due_idx')
      .on(t.dueAt)
      .where(sql`${t.state} = 'due'`),
    index('journey_tasks_waiting_idx')
      .on(t.workspaceId, t.profileId)
      .where(sql`${t.state} = 'due'`),
    index('journey_tasks_step_idx').on(t.workspaceId, t.journeyId, t.version, t.stepId),
    index('journey_tasks_emailed_idx')
      .on(t.workspaceId, t.profileId, t.emailedAt)
      .where(sql`${t.emailedAt} is not null`),
  ],
);

/** A workspace's caps and quiet hours on journey email, and the secret its webhook steps sign with. */
export const journeyLimits = pgTable('journey_limits', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  perDay: integer('per_day'),
  perWeek: integer('per_week'),
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Sealed (lib/secret-box). */
  webhookSecret: text('webhook_secret'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The members of a started version's entry audience when last looked at: a look now that differs is
 * a profile entering or leaving the audience.
 */
export const journeyAudienceMembers = pgTable(
  'journey_audience_members',
  {
    workspaceId: text('workspace_id').notNull(),
    journeyId: text('journey_id').notNull(),
    version: integer('version').notNull(),
    profileId: text('profile_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.journeyId, t.version, t.profileId] })],
);

/** A date entry's occurrences that entered (or were refused) a profile: each one enters it once. */
export const journeyOccurrences = pgTable(
  'journey_occurrences',
  {
    workspaceId: text('workspace_id').notNull(),
    journeyId: text('journey_id').notNull(),
    profileId: text('profile_id').notNull(),
    /** The occurrence's moment (the date, its offset and time of day in its zone). */
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.journeyId, t.profileId, t.at] })],
);
