import { z } from 'zod';

/** The HTTP contract of webhooks. */

export const WEBHOOK_EVENTS = [
  'item.published',
  'item.unpublished',
  'item.saved',
  'item.deleted',
  'item.approved',
  'release.published',
  'release.reverted',
  'model.changed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'item.published': 'Item published',
  'item.unpublished': 'Item unpublished',
  'item.saved': 'Item saved',
  'item.deleted': 'Item deleted',
  'item.approved': 'Item approved',
  'release.published': 'Release published',
  'release.reverted': 'Release reverted',
  'model.changed': 'Content model changed',
};

/** The header that signs each delivery: `t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}"}`. */
export const SIGNATURE_HEADER = 'X-Marquee-Signature';

/** What lets webhooks call private, loopback and link-local addresses (`WEBHOOK_ALLOW_PRIVATE=1`). */
export const WEBHOOK_PRIVATE_SETTING = 'WEBHOOK_ALLOW_PRIVATE';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  badScheme: 'url: Webhooks are sent only to http(s) URLs',
  privateAddress: 'url: Webhooks may not call private, loopback or link-local addresses',
  unresolvable: (host: string) => `url: The host "${host}" could not be resolved`,
} as const;

const WebhookUrl = z
  .string()
  .trim()
  .max(2000, { error: 'url: at most 2000 characters' })
  .refine((value) => URL.canParse(value), { error: 'url: Not a valid URL' })
  .describe('Where deliveries are POSTed (http or https)');

const WebhookEventName = z.enum(WEBHOOK_EVENTS, {
  error: `events: use ${WEBHOOK_EVENTS.join(', ')}`,
});

export const CreateWebhookBody = z
  .object({
    url: WebhookUrl,
    events: z.array(WebhookEventName).min(1, { error: 'events: choose at least one event' }).max(5),
    schemas: z
      .array(z.string().max(100))
      .max(200)
      .optional()
      .describe('Only items of these schemas; omitted or empty: every schema'),
    active: z.boolean().optional(),
  })
  .strict();
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const PatchWebhookBody = CreateWebhookBody.partial()
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Send at least one of url, events, schemas and active',
  });
export type PatchWebhookBody = z.infer<typeof PatchWebhookBody>;

export const CreatedWebhook = z.object({
  id: z.string(),
  secret: z.string().describe('Signs the deliveries; shown this once'),
});

export const WebhookSummary = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  schemas: z.array(z.string()).nullable(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type WebhookSummary = z.infer<typeof WebhookSummary>;
export const WebhookList = z.object({ webhooks: z.array(WebhookSummary) });
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookDelivery = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  tries: z.number().int(),
  lastStatusCode: z.number().int().nullable().describe('HTTP status of the last try'),
  lastError: z.string().nullable(),
  body: z.string().describe('The JSON that was (or will be) sent'),
  createdAt: z.string(),
  nextAt: z.string().nullable().describe('When the next try is due (pending only)'),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveryList = z.object({
  deliveries: z.array(WebhookDelivery).describe('Newest first'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
