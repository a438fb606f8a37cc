import { z } from 'zod';
import { ImageVariantQuery } from '../media/contract';
import { Email } from './auth';

/** Email template test sends (spec §7 `POST /testSend/{provider}`). */

const MAX_TEST_RECIPIENTS = 10;

export const EMAIL_MESSAGES = {
  noRecipients: 'Add at least one test address',
  tooManyRecipients: `Send a test to at most ${MAX_TEST_RECIPIENTS} addresses`,
  notConfigured: 'Service not configured',
  rateLimited: (limit: number) =>
    `Too many test sends: this workspace may send ${limit} an hour. Try again later.`,
  sentTo: (recipients: readonly string[]) => `Test sent to ${recipients.join(', ')}`,
  clipped: (htmlBytes: number) =>
    `Gmail clips messages over 102 KB: this one is ${Math.ceil(htmlBytes / 1024)} KB.`,
} as const;

/** Gmail hides the rest of a message whose HTML is over 102 KB behind '[Message clipped]'. */
export const GMAIL_CLIP_BYTES = 102 * 1024;

/** What switches on test sends through the SendGrid-compatible provider. */
export const SENDGRID_SETTING = 'SENDGRID_API_KEY';

const TEST_SEND_PROVIDERS = ['smtp', 'sendgrid'] as const;
export const TestSendProvider = z.enum(TEST_SEND_PROVIDERS).describe('Email delivery provider');
export type TestSendProvider = z.infer<typeof TestSendProvider>;

export const Recipients = z
  .array(Email)
  .min(1, { error: EMAIL_MESSAGES.noRecipients })
  .max(MAX_TEST_RECIPIENTS, { error: EMAIL_MESSAGES.tooManyRecipients })
  .describe('Addresses the test goes to');

/** Attribute values of one customer profile, keyed by attribute key, for the merge tags. */
const MergeAttributesBody = z
  .record(z.string().max(100), z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 500, { error: 'At most 500 attributes' })
  .describe('Attribute values of one customer profile, keyed by attribute key, filling the merge tags');

export const ProfileId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe("A customer profile's id: its attribute values fill the merge tags (given attributes win)");

/** `POST /fun/testSend/{provider}` (spec §7): the content to send. */
export const TestSendBody = z.object({
  recipients: Recipients,
  subject: z.string().trim().min(1, { error: 'Subject is required' }).max(998),
  text: z.string().max(1_000_000).default(''),
  html: z.string().max(4_000_000).default(''),
  preheader: z.string().max(1000).optional().describe('Preview text inboxes show after the subject'),
  attributes: MergeAttributesBody.optional(),
  profileId: ProfileId.optional(),
});
export type TestSendBody = z.infer<typeof TestSendBody>;

/** `POST /api/v1/workspaces/{ws}/emails/{id}/test-send`: the item's content, to its test addresses unless given. */
export const ItemTestSendBody = z.object({
  provider: TestSendProvider.default('smtp'),
  recipients: Recipients.optional(),
  attributes: MergeAttributesBody.optional(),
  profileId: ProfileId.optional(),
});
export type ItemTestSendBody = z.input<typeof ItemTestSendBody>;

export const TestSendRecord = z.object({
  id: z.number(),
  itemId: z.string().nullable(),
  provider: z.string(),
  recipients: z.array(z.string()),
  subject: z.string(),
  at: z.string().describe('ISO time'),
  by: z.string(),
  byName: z.string(),
  status: z.enum(['sending', 'sent', 'failed']),
  error: z.string().nullable(),
});
export type TestSendRecord = z.infer<typeof TestSendRecord>;

/** The sent HTML's size: Gmail clips a message over {@link GMAIL_CLIP_BYTES}. */
const HtmlSize = {
  htmlBytes: z.number().int().describe("The HTML part's size in bytes (UTF-8)"),
  clipped: z.boolean().describe('Over 102 KB (102 × 1024 bytes): Gmail clips it'),
};

export const TestSendAnswer = z.object({
  message: z.string().describe("'Test sent to …'"),
  testSend: TestSendRecord,
  ...HtmlSize,
});
export type TestSendAnswer = z.infer<typeof TestSendAnswer>;

/** `GET …/emails/{id}/preview`: the saved email as a test send would send it. */
export const EmailPreviewQuery = z.object({ profileId: ProfileId.optional() });

export const EmailPreviewAnswer = z.object({
  subject: z.string(),
  preheader: z.string(),
  html: z.string().describe('The HTML part as sent: a whole, responsive document'),
  text: z.string(),
  ...HtmlSize,
});
export type EmailPreviewAnswer = z.infer<typeof EmailPreviewAnswer>;

export const TestSendList = z.object({ testSends: z.array(TestSendRecord) });
export type TestSendList = z.infer<typeof TestSendList>;

const MergeTagOption = z.object({ key: z.string(), label: z.string() });
export const MergeTagList = z.object({ mergeTags: z.array(MergeTagOption) });
export type MergeTagList = z.infer<typeof MergeTagList>;

/**
 * `GET /fun/emailImage/`: an image of a sent email or of delivered content, by its signed link. Links
 * in delivered content also name the published item they were delivered in (stage, schema, item). The
 * signature covers the workspace, the file and that item; the variant asked for is the reader's choice.
 */
export const EmailImageQuery = ImageVariantQuery.extend({
  id: z.string().min(1).max(100),
  __marquee_workspace: z.string().min(1).max(63),
  stage: z.string().min(1).max(60).optional(),
  schema: z.string().min(1).max(100).optional(),
  item: z.string().min(1).max(64).optional(),
  sig: z.string().min(1).max(100),
});
