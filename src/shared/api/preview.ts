import { z } from 'zod';
import { DeliveredItemSchema, type DeliveredItem } from './delivery';

/**
 * The HTTP contract of live preview: the workspace's preview origins, preview tokens (which read drafts
 * through the delivery API with `?preview=draft`) and the rendering of a form's unsaved values.
 */

export const PREVIEW_TOKEN_PREFIX = 'mqp_';
/** A token lives an hour unless asked otherwise, a day at most. */
export const PREVIEW_TOKEN_DEFAULT_SECONDS = 3600;
const PREVIEW_TOKEN_MAX_SECONDS = 86_400;
const MAX_PREVIEW_ORIGINS = 20;

export const PREVIEW_MESSAGES = {
  expired: 'This preview token has expired',
  revoked: 'This preview token was revoked',
  invalid: 'Invalid preview token',
  itemNotFound: 'Item not found',
  apiKeyForDrafts: 'Drafts need a preview token, not an API key',
  draftsOnly: 'A preview token reads drafts only: add preview=draft',
  tokenNotFound: 'Preview token not found',
  itemNeedsSchema: 'itemId needs schema',
  notYourToken: 'Only the member who made a preview token, or a workspace manager, may revoke it',
  origin: (value: string) => `"${value}" is not an origin: scheme://host[:port], with no path`,
} as const;

/** `scheme://host[:port]`, http or https, nothing after it. */
const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Whether a value is an origin as the workspace's preview origins hold them. */
export const isPreviewOrigin = (value: string) => value.length <= 300 && ORIGIN.test(value);

export const PreviewOrigins = z.object({
  origins: z
    .array(
      z
        .string()
        .trim()
        .refine(isPreviewOrigin, { error: (issue) => PREVIEW_MESSAGES.origin(String(issue.input)) }),
    )
    .max(MAX_PREVIEW_ORIGINS, { error: `At most ${MAX_PREVIEW_ORIGINS} preview origins` })
    .describe('Origins (scheme://host[:port]) whose pages the preview pane may show and talk to'),
});
export type PreviewOrigins = z.infer<typeof PreviewOrigins>;

const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Not an id' });

export const CreatePreviewTokenBody = z
  .object({
    schema: z
      .string()
      .max(64)
      .optional()
      .describe('Scope the token to this schema (with itemId: to one item)'),
    itemId: Id.optional().describe('Scope the token to this item of the schema'),
    releaseId: Id.optional().describe('Answer the release as it will leave its stage'),
    expiresIn: z
      .number()
      .int({ error: 'expiresIn is a whole number of seconds' })
      .min(1, { error: 'expiresIn is at least 1 second' })
      .max(PREVIEW_TOKEN_MAX_SECONDS, { error: `expiresIn is at most ${PREVIEW_TOKEN_MAX_SECONDS} seconds` })
      .optional()
      .describe(
        `Seconds the token lives, 1 to ${PREVIEW_TOKEN_MAX_SECONDS} (default ${PREVIEW_TOKEN_DEFAULT_SECONDS})`,
      ),
  })
  .strict()
  .refine((body) => body.itemId === undefined || body.schema !== undefined, {
    error: PREVIEW_MESSAGES.itemNeedsSchema,
    path: ['itemId'],
  });
export type CreatePreviewTokenBody = z.infer<typeof CreatePreviewTokenBody>;

export const CreatedPreviewToken = z.object({
  id: z.string(),
  token: z.string().describe('mqp_…: send as Authorization: Bearer, or ?previewToken=, with ?preview=draft'),
  expiresAt: z.string(),
});
export type CreatedPreviewToken = z.infer<typeof CreatedPreviewToken>;

export const PreviewTokenId = z
  .string()
  .regex(/^[A-Za-z0-9]{1,40}$/, { error: PREVIEW_MESSAGES.tokenNotFound });

export const PreviewRenderBody = z
  .object({
    schema: z.string().max(64),
    id: Id.optional().describe('The item the form edits (none for a new one)'),
    data: z.record(z.string(), z.unknown()).describe("The form's unsaved values"),
    locale: z.string().max(35).optional(),
    releaseId: Id.optional(),
  })
  .strict();
export type PreviewRenderBody = z.infer<typeof PreviewRenderBody>;

/** Field path → the value of its `data-marquee-edit` attribute. */
export const EditInfo = z.record(z.string(), z.string());
export type EditInfo = z.infer<typeof EditInfo>;

export const PreviewRenderAnswer = z.object({
  item: DeliveredItemSchema.describe('The values in the delivery shape (include=refs, references as drafts)'),
  editInfo: EditInfo,
});
/** As the server makes it: the item typed as delivered (the zod shape types its refs loosely). */
export interface PreviewRenderAnswer {
  item: DeliveredItem;
  editInfo: EditInfo;
}
