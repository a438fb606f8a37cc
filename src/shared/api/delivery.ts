import { z } from 'zod';

/**
 * The HTTP contract of delivery: workspace API keys, the read-only delivery API
 * `/delivery/v1/{ws}/{stage}/items/{schema}[/{id}]` and the audit log.
 */

export const API_KEY_PREFIX = 'mq_';
const DELIVERY_MAX_LIMIT = 100;
export const DELIVERY_DEFAULT_LIMIT = 20;
const DELIVERY_MAX_DEPTH = 3;

export const DELIVERY_MESSAGES = {
  missingKey: 'An API key is required: send Authorization: Bearer mq_…',
  invalidKey: 'This API key is not valid or was revoked',
  keyNotFound: 'API key not found',
  stageNotAllowed: (stage: string) => `This API key may not read the stage "${stage}"`,
  itemNotPublished: 'Item not published in this stage',
  previewNotAllowed:
    'This API key may not preview releases: a workspace manager can create a key with the preview right',
} as const;

const ApiKeyName = z
  .string()
  .trim()
  .min(1, { error: 'Name is required' })
  .max(100, { error: 'Name is at most 100 characters' });

export const CreateApiKeyBody = z
  .object({
    name: ApiKeyName.describe('What the key is for, e.g. "Website"'),
    stages: z
      .array(z.string().trim().min(1).max(60))
      .min(1, { error: 'Choose at least one stage' })
      .max(20)
      .describe('Stages (labels or values) the key may read'),
    preview: z
      .boolean()
      .default(false)
      .describe('May also read releases before they publish (?release={id})'),
  })
  .strict();
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBody>;

export const CreatedApiKey = z.object({
  id: z.string(),
  key: z.string().describe('The secret, shown this once: send it as Authorization: Bearer mq_…'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  stages: z.array(z.string()).describe('Stage values the key may read'),
  createdBy: z.string().describe('Name of the member who created the key'),
  createdById: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Last delivery request with the key (to the minute)'),
  preview: z.boolean().describe('May read releases before they publish'),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

export const ApiKeyList = z.object({ keys: z.array(ApiKeySummary) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const ApiKeyId = z
  .string()
  .regex(/^[A-Za-z0-9]{1,40}$/, { error: DELIVERY_MESSAGES.keyNotFound })
  .describe('API key id');

/** One published item as the delivery API answers it. */
export interface DeliveredItem {
  id: string;
  schema: string;
  version: number;
  publishedAt: string;
  data: Record<string, unknown>;
  /** For schemas with a slug: the other slugs it was published under in this stage, oldest first. */
  previousSlugs?: string[];
  /** With include=refs: referenced items published in the same stage, by id (null when not published there). */
  refs?: Record<string, DeliveredItem | null>;
  /** With ?locale=: the locale asked for. */
  locale?: string;
  /** With ?locale=: the localised fields that fell back, each with the locale its value came from. */
  _locale?: Record<string, string>;
  /** Old names of fields renamed lately, answered in `data` too until `until`. */
  _deprecated?: Record<string, { renamedTo: string; until: string }>;
  /** With ?preview=draft&editInfo=true: field path → the value of its `data-marquee-edit` attribute. */
  _editInfo?: Record<string, string>;
}

export const DeliveredItemSchema = z.object({
  id: z.string(),
  schema: z.string(),
  version: z.number().int().describe('The published version'),
  publishedAt: z.string(),
  data: z.record(z.string(), z.unknown()).describe('Field values as published (fields= picks some)'),
  previousSlugs: z
    .array(z.string())
    .optional()
    .describe(
      'For schemas with a slug: the other slugs the item was published under in this stage, oldest first (redirect those URLs to its slug)',
    ),
  locale: z.string().optional().describe('With ?locale=: the locale asked for'),
  _locale: z
    .record(z.string(), z.string())
    .optional()
    .describe('With ?locale=: localised fields that fell back → the locale their value came from'),
  _deprecated: z
    .record(z.string(), z.object({ renamedTo: z.string(), until: z.string() }))
    .optional()
    .describe(
      'Fields renamed in the last 30 days: old name → its new name and until when data answers the old name too',
    ),
  _editInfo: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'With preview=draft&editInfo=true: each field path (body, blocks.2, blocks.2.title) → the value of its data-marquee-edit attribute',
    ),
  refs: z
    .record(z.string(), z.record(z.string(), z.unknown()).nullable())
    .optional()
    .describe(
      'With include=refs: referenced id → the item as published in the same stage (same shape, embedding its own refs up to depth), or null when not published there',
    ),
});

export const DeliveryList = z.object({
  items: z.array(DeliveredItemSchema),
  nextCursor: z.string().nullable(),
});
export type DeliveryList = z.infer<typeof DeliveryList>;

export const DeliveryQuery = z
  .object({
    cursor: z.string().max(2000).optional().describe('nextCursor of the previous page'),
    limit: z.coerce
      .number()
      .int()
      .min(1, { error: 'limit is at least 1' })
      .max(DELIVERY_MAX_LIMIT, { error: `limit is at most ${DELIVERY_MAX_LIMIT}` })
      .optional()
      .describe(`Page size, 1 to ${DELIVERY_MAX_LIMIT} (default ${DELIVERY_DEFAULT_LIMIT})`),
    fields: z.string().max(2000).optional().describe('Comma-separated top-level fields to return'),
    order: z
      .string()
      .max(120)
      .optional()
      .describe(
        'A top-level field, publishedAt or id; a leading "-" sorts descending (default -publishedAt)',
      ),
    release: z
      .string()
      .max(40)
      .optional()
      .describe(
        'A release id: the content as it will be once the release publishes (keys with the preview right; never cached)',
      ),
    preview: z
      .enum(['draft'], { error: 'preview: draft is its only value' })
      .optional()
      .describe(
        'draft: the working versions (drafts) in the same shape, with a preview token (mqp_…) instead of an API key; private, never cached',
      ),
    previewToken: z
      .string()
      .max(200)
      .optional()
      .describe('With preview=draft: the preview token, for pages that cannot send Authorization'),
    editInfo: z
      .enum(['true', 'false'], { error: 'editInfo: true or false' })
      .optional()
      .describe("With preview=draft: true adds each item's _editInfo (field path → data-marquee-edit value)"),
    include: z.enum(['refs']).optional().describe('refs: embed referenced items published in the same stage'),
    depth: z.coerce
      .number()
      .int()
      .min(1)
      .max(DELIVERY_MAX_DEPTH, { error: `depth is at most ${DELIVERY_MAX_DEPTH}` })
      .optional()
      .describe(`How deep include=refs embeds (1 to ${DELIVERY_MAX_DEPTH}, default 1)`),
    locale: z
      .string()
      .max(35)
      .optional()
      .describe(
        "A locale of the workspace: localised fields in it or the first of its fallback chain that has a value (the item's _locale names those that fell back); * for every locale",
      ),
    fallback: z
      .enum(['true', 'false'], { error: 'fallback: true or false' })
      .optional()
      .describe('With locale: false answers only the values the locale has (default true)'),
  })
  .catchall(z.string().max(2000))
  .describe('Also filter[field]=value and filter[field][eq|ne|gt|gte|lt|lte|in]=value on top-level fields');
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;

export const AUDIT_ACTIONS = [
  'item.created',
  'item.saved',
  'item.deleted',
  'item.published',
  'item.unpublished',
  'item.approved',
  'item.restored',
  'item.duplicated',
  'comment.created',
  'workspace.created',
  'workspace.updated',
  'roles.updated',
  'member.invited',
  'member.updated',
  'invitation.revoked',
  'member.joined',
  'api-key.created',
  'api-key.revoked',
  'preview-token.created',
  'preview-token.revoked',
  'preview-origins.updated',
  'write-key.created',
  'write-key.updated',
  'write-key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.redelivered',
  'schedule.created',
  'schedule.cancelled',
  'import.started',
  'import.finished',
  'customer-events.tracked',
  'customer-events.ingested',
  'profile.updated',
  'profile.erased',
  'profile.unsubscribed',
  'profile.resubscribed',
  'suppression.added',
  'suppression.removed',
  'sender.created',
  'sender.updated',
  'sender.deleted',
  'sending-domain.checked',
  'postal-address.updated',
  'recipient-settings.updated',
  'test-send.sent',
  'test-send.failed',
  'campaign.send',
  'campaign.pause',
  'campaign.resume',
  'campaign.cancel',
  'campaign.resend-unconfirmed',
  'journey.start',
  'journey.pause',
  'journey.resume',
  'journey.stop',
  'journey.enter',
  'journey.limits',
  'file.uploaded',
  'file.updated',
  'visualisation.refreshed',
  'release.created',
  'release.updated',
  'release.deleted',
  'release.entries-added',
  'release.entries-removed',
  'release.published',
  'release.reverted',
  'model.changed',
  'model.reverted',
  'sso.updated',
  'sso.deleted',
  'sso.signed-in',
  'sso.linked',
  'scim-token.created',
  'scim-token.revoked',
  'scim.user-created',
  'scim.user-updated',
  'scim.user-deactivated',
  'scim.user-reactivated',
  'scim.user-deleted',
  'scim.group-created',
  'scim.group-updated',
  'scim.group-deleted',
  'two-factor.enabled',
  'two-factor.disabled',
  'two-factor.recovery-codes-regenerated',
  'two-factor.recovery-code-used',
  'two-factor.requirement-updated',
  'passkey.added',
  'passkey.removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.string(),
  userName: z.string(),
  action: z.string(),
  targetType: z
    .string()
    .describe(
      'item, workspace, member, api-key, webhook, schedule, import, test-send, file, profile, suppression, sender, sending-domain, campaign, release or content-model',
    ),
  targetId: z.string(),
  label: z
    .string()
    .nullable()
    .describe(
      "The target's name when it changed: an item's title, a member's name, a key's label, a webhook's URL",
    ),
  schema: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  address: z.string().nullable().describe('Client address of the request'),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  user: z.string().max(100).optional().describe('Only entries of this user id'),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this time'),
  to: z.iso.datetime({ offset: true }).optional().describe('Entries before this time'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof AuditPage>;
