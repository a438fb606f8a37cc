import { z } from 'zod';

/**
 * The HTTP contract of events from websites and apps: write keys under
 * `/api/v1/workspaces/{ws}/write-keys` and the ingestion API `/ingest/v1/track|identify|batch`.
 */

export const WRITE_KEY_PREFIX = 'mqw_';
/** Server keys are told apart at a glance (and by secret scanners) from write keys. */
export const SERVER_KEY_PREFIX = 'mqs_';

/**
 * The two kinds of ingest key: a write key is public (a website's pages carry it) and may not change
 * a profile's protected attributes; a server key is a secret kept on servers, refused from a browser,
 * and may.
 */
const INGEST_KEY_KINDS = ['write', 'server'] as const;
export type IngestKeyKind = (typeof INGEST_KEY_KINDS)[number];
/** Most messages one `/ingest/v1/batch` call takes. */
const MAX_INGEST_BATCH = 500;
/**
 * Events of an anonymous visitor are stored under this prefix and the visitor's anonymousId; profile ids
 * may not start with it (ingestion and imports refuse them), so the two never collide.
 */
export const ANONYMOUS_PREFIX = 'anon:';

export const INGEST_MESSAGES = {
  missingKey: 'A write key is required: send Authorization: Bearer mqw_… or ?writeKey=mqw_…',
  serverKeyInQuery: 'A server key goes in the Authorization header, never in the address',
  serverKeyFromBrowser: 'A server key may not be used from a browser: use a write key there',
  serverKeyOrigins: 'origins: a server key is never used from a browser, so it takes no origins',
  invalidKey: 'This write key is not valid or was revoked',
  keyNotFound: 'Write key not found',
  originNotAllowed: (origin: string) => `The origin ${origin} may not send events with this write key`,
  rateLimited: 'Too many events for this write key: wait and send them again',
  reservedId: `ids starting with "${ANONYMOUS_PREFIX}" are kept for anonymous visitors`,
} as const;

const WriteKeyName = z
  .string()
  .trim()
  .min(1, { error: 'Name is required' })
  .max(100, { error: 'Name is at most 100 characters' });

/** An origin as browsers send it (`scheme://host[:port]`); a trailing slash is dropped. */
const AllowedOrigin = z
  .string()
  .trim()
  .max(200)
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => /^https?:\/\/[^/?#\s]+$/i.test(value) && URL.canParse(value), {
    error: (issue) => `"${String(issue.input)}" is not an origin such as https://www.example.com`,
  })
  .transform((value) => new URL(value).origin);

const Strict = z
  .boolean()
  .describe(
    'Refuse events, properties and attributes the workspace has not declared (else they are kept and listed as undeclared)',
  );

export const CreateWriteKeyBody = z
  .object({
    name: WriteKeyName.describe('What sends with the key, e.g. "Website"'),
    kind: z
      .enum(INGEST_KEY_KINDS)
      .default('write')
      .describe(
        'write (default): for browsers and apps, may not overwrite protected attributes; server: a secret for servers only, may',
      ),
    origins: z
      .array(AllowedOrigin)
      .max(20, { error: 'At most 20 origins' })
      .default([])
      .describe('Origins whose pages may send with the key; none: any origin'),
    strict: Strict.default(false),
  })
  .strict();
export type CreateWriteKeyBody = z.input<typeof CreateWriteKeyBody>;

export const UpdateWriteKeyBody = z.object({ strict: Strict }).strict();
export type UpdateWriteKeyBody = z.infer<typeof UpdateWriteKeyBody>;

export const CreatedWriteKey = z.object({
  id: z.string(),
  key: z
    .string()
    .describe(
      'The secret, shown this once: send it as Authorization: Bearer mqw_… (or mqs_… for a server key)',
    ),
});

export const WriteKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(INGEST_KEY_KINDS),
  origins: z.array(z.string()).describe('Origins allowed to send with the key; empty: any'),
  strict: z.boolean().describe('Refuses undeclared events, properties and attributes'),
  createdBy: z.string().describe('Name of the member who created the key'),
  createdById: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Last request with the key (to the minute)'),
});
export type WriteKeySummary = z.infer<typeof WriteKeySummary>;

export const WriteKeyList = z.object({ keys: z.array(WriteKeySummary) });

export const WriteKeyId = z
  .string()
  .regex(/^[A-Za-z0-9]{1,40}$/, { error: INGEST_MESSAGES.keyNotFound })
  .describe('Write key id');

/** Messages are checked one by one by the server (a bad one is rejected with its reason, the rest kept). */
const Message = z.record(z.string(), z.unknown());

export const TrackBody = Message.describe(
  '{profileId | anonymousId, event, properties?, at?, id?}, or the analytics event document ' +
    '{xmUser?, xmSession?, xmWs?, url, eventType, data?}',
);
export const IdentifyBody = Message.describe(
  "{profileId, anonymousId?, attributes?}: sets the profile's attributes and moves the anonymous visitor's events to it",
);
export const BatchBody = z.object({
  batch: z
    .array(z.unknown())
    .min(1, { error: 'batch is empty' })
    .max(MAX_INGEST_BATCH, { error: `batch: at most ${MAX_INGEST_BATCH} messages` })
    .describe('Track and identify messages, each with type "track" or "identify" (else told by its fields)'),
});

export const WriteKeyQuery = z.object({
  writeKey: z.string().max(200).optional().describe('The write key, for clients that cannot set headers'),
});

export const IngestAnswer = z.object({
  accepted: z.number().int(),
  rejected: z.number().int(),
  errors: z
    .array(z.object({ index: z.number().int(), message: z.string() }))
    .describe('Why each rejected message was refused, by its index in the request'),
  refused: z
    .array(z.string())
    .optional()
    .describe(
      'Protected attributes a write key may not change that accepted identify messages tried to (their other attributes were set); only when there were some',
    ),
  refusals: z
    .array(z.object({ index: z.number().int(), attributes: z.array(z.string()) }))
    .optional()
    .describe('The protected attributes refused, by message index; only when there were some'),
});
export type IngestAnswer = z.infer<typeof IngestAnswer>;
