import { z } from 'zod';
import { DEFAULT_NEAR_RADIUS_KM, NEAR_MESSAGES } from '../geo/address';
import { MAX_RADIUS_KM } from '../geo/geohash';
import { PUBLISH_STATUSES } from '../publishing/status';
import { WorkspaceId } from './workspaces';

/**
 * The HTTP contract of items and everything under an item: history, comments, approvals and
 * publishing. `/api/v1/workspaces/{ws}/items/…` and `/fun/…` share these shapes.
 */

export const ITEM_MESSAGES = {
  instanceNotFound: 'Instance not found',
  saveBlocked: 'Please fix validation errors before saving',
  staleVersion: 'Someone else saved a newer version. Reload to see their changes.',
  versionNotFound: 'Version not found',
  invalidCursor: 'Invalid cursor: ask for the first page again',
  incompleteItem: 'This item is incomplete. Finish editing before publishing.',
  deleteNeedsEveryLocale: (what: string, locales: string[]) =>
    `You do not have permission to delete ${what}: deleting one removes every locale's values, and you may edit only ${
      locales.length ? locales.join(', ') : 'no locale'
    }`,
  deleteNeedsPublish: (what: string) =>
    `You do not have permission to delete published ${what}: deleting one unpublishes it, which needs permission to publish ${what}`,
} as const;

export const SchemaName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, { error: 'Schema not found' })
  .describe('Schema (item type) name, e.g. blog-post');
export const ItemId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Instance not found' })
  .describe('Item id');
export const StageParam = z
  .string()
  .regex(/^[A-Za-z0-9 _-]{1,60}$/, { error: 'Stage not found' })
  .describe('Stage value (kebab-case of its label), e.g. live');

const PublishStatus = z.enum(PUBLISH_STATUSES);

const ReferenceEntry = z.object({
  schemaType: z.string(),
  label: z.string(),
  fieldKey: z.string().describe('Key of the (first) field holding the reference'),
  thumbId: z.string().optional(),
});
const References = z
  .record(z.string(), ReferenceEntry)
  .describe('_references: referenced item id → schemaType, label, fieldKey, thumbId; rebuilt on every save');

const ItemData = z
  .record(z.string(), z.unknown())
  .describe("Field values, checked against the schema's zod type");

const Abilities = z
  .object({
    canEdit: z.boolean(),
    canPublish: z.boolean(),
    canApprove: z.boolean().describe('The caller holds a role that has yet to approve the current version'),
    canDelete: z
      .boolean()
      .describe('The caller may edit every locale of it and, when it is published in a stage, publish it'),
  })
  .describe("The caller's abilities on this item");

const ApprovedBy = z.object({
  roleId: z.string(),
  roleLabel: z.string(),
  byId: z.string(),
  byName: z.string(),
  at: z.string(),
});

const StageCopy = z.object({
  version: z.number().int(),
  publishedAt: z.string(),
  publishedBy: z.string(),
});

export const Item = z.object({
  id: z.string(),
  schema: z.string(),
  data: ItemData,
  _references: References,
  version: z
    .number()
    .int()
    .describe('Starts at 1 and rises by 1 on each save; send it back as baseVersion or If-Match'),
  modelVersion: z
    .number()
    .int()
    .optional()
    .describe("The version of the workspace's content model the data is in; send it back with a save"),
  lastWrittenBy: z.string(),
  lastWrittenByName: z
    .string()
    .nullable()
    .describe('Display name; null when the user is unknown (UNKNOWN USER)'),
  lastWrittenAt: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  hasErrors: z.boolean().describe('__hasErrors: saved with validation errors (schemas that allow it)'),
  variation: z.record(z.string(), z.string()).nullable(),
  publishStatus: z
    .record(z.string(), PublishStatus)
    .describe('Stage value → NOT_PUBLISHED | MODIFIED | CURRENT, for every stage of the workspace'),
  published: z.record(z.string(), StageCopy).describe('Stage value → the stage copy, for stages holding one'),
  fullyApproved: z.boolean(),
  remainingApprovals: z.array(z.string()).describe('Role ids that must still approve the current version'),
  approvedBy: z.array(ApprovedBy).describe('Approvals of the current version'),
  abilities: Abilities,
});
export type Item = z.infer<typeof Item>;

export const ItemList = z.object({
  items: z.array(Item),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});
export type ItemList = z.infer<typeof ItemList>;

/** Spec §9: the list screen's page is 12 items; a query without a limit gets 24. */
export const PAGE_SIZE = 12;
const DEFAULT_QUERY_LIMIT = 24;
export const MAX_QUERY_LIMIT = 100;

export const ListItemsQuery = z.object({
  view: z
    .string()
    .max(100)
    .default('all')
    .describe(
      'all | last-updated-by-me | need-my-approval | published-in | outdated-in | aging-in (or published-in-{stage} …)',
    ),
  stage: StageParam.optional().describe('The stage of a per-stage view'),
  cursor: z.string().max(500).optional(),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe(
      "Case-insensitive text the item's words contain: its text fields, tags and the text of its rich text (not the markup)",
    ),
  near: z
    .string()
    .max(100)
    .optional()
    .describe('{latitude},{longitude}: only items whose address lies within radiusKm, nearest first'),
  radiusKm: z.coerce
    .number({ error: NEAR_MESSAGES.radius })
    .positive({ error: NEAR_MESSAGES.radius })
    .max(Math.round(MAX_RADIUS_KM), { error: NEAR_MESSAGES.radius })
    .optional()
    .describe(`Radius of the near search in km (default ${DEFAULT_NEAR_RADIUS_KM})`),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(MAX_QUERY_LIMIT, { error: `limit must be at most ${MAX_QUERY_LIMIT}` })
    .default(DEFAULT_QUERY_LIMIT),
  missing: z
    .string()
    .max(35)
    .optional()
    .describe(
      "A locale other than the default: only items with a localised field that has a default-locale value but none in it (one schema's list)",
    ),
});
export type ListItemsQuery = z.input<typeof ListItemsQuery>;

export const SaveItemBody = z
  .object({
    data: ItemData,
    baseVersion: z
      .number({ error: 'baseVersion must be a number' })
      .int()
      .min(1)
      .optional()
      .describe('The version this edit was based on; a stale one answers 409 and changes nothing'),
    modelVersion: z
      .number({ error: 'modelVersion must be a number' })
      .int()
      .min(0)
      .optional()
      .describe(
        'The content model version the data was read in: data of an older one is first brought to the current model (a field renamed since is saved under its new name)',
      ),
  })
  .strict();
export type SaveItemBody = z.input<typeof SaveItemBody>;

export const CreatedItem = z.object({ id: z.string(), version: z.number().int() });

export const DeletedItem = z.object({ id: z.string(), schema: z.string(), deleted: z.literal(true) });

export const FunQuery = z.object({
  __marquee_workspace: WorkspaceId.describe('The workspace (spec §7: every /fun/ call carries it)'),
});

const HistoryEntry = z.object({
  id: z.string(),
  num: z.number().int(),
  at: z.string(),
  by: z.string(),
  byName: z.string().nullable(),
  thisVersion: z.number().int(),
  previousVersion: z.number().int().nullable(),
  changes: z
    .object({
      locales: z
        .array(z.string())
        .describe("Locales whose own values of localised fields changed, the default's first"),
      shared: z.boolean().describe('Whether a field every locale shares changed'),
    })
    .optional()
    .describe(
      'What this version changed against the previous one; only where the schema has localised fields',
    ),
});
export const HistoryList = z.object({ versions: z.array(HistoryEntry).describe('Newest first') });
export const HistoryVersion = z.object({
  num: z.number().int(),
  at: z.string(),
  by: z.string(),
  byName: z.string().nullable(),
  data: ItemData,
  _references: References,
});
export type HistoryVersion = z.infer<typeof HistoryVersion>;
export const VersionParams = z.object({
  num: z.coerce
    .number({ error: 'Version not found' })
    .int({ error: 'Version not found' })
    .min(1, { error: 'Version not found' }),
});

export const Comment = z.object({
  id: z.string(),
  at: z.string(),
  by: z.string(),
  byName: z.string(),
  text: z.string(),
});
export type Comment = z.infer<typeof Comment>;
export const CommentList = z.object({ comments: z.array(Comment).describe('Oldest first') });
export const AddCommentBody = z
  .object({
    text: z
      .string({ error: 'Comment text is required' })
      .trim()
      .min(1, { error: 'Comment text is required' })
      .max(10_000, { error: 'A comment holds at most 10000 characters' }),
  })
  .strict();

const ApprovalRole = z.object({
  at: z.string(),
  byId: z.string(),
  byName: z.string(),
  asRoleId: z.string(),
  asRoleLabel: z.string(),
  comment: z.string().nullable(),
});
const ApprovalRecord = z.object({
  version: z.number().int(),
  at: z.string().describe('Time of the latest approval of this version'),
  roles: z.record(z.string(), ApprovalRole).describe('Role id → its approval'),
});
export const Approvals = z.object({
  version: z.number().int().describe("The item's current version"),
  fullyApproved: z.boolean(),
  remainingApprovals: z.array(z.string()),
  approvers: z
    .array(z.object({ roleId: z.string(), label: z.string() }))
    .describe('Roles that must approve this schema'),
  versions: z.array(ApprovalRecord).describe('Approval record per version, newest first'),
});
export type Approvals = z.infer<typeof Approvals>;
export const ApproveBody = z
  .object({
    roleId: z.string({ error: 'roleId is required' }).min(1, { error: 'roleId is required' }).max(100),
    comment: z.string().trim().max(2000).optional(),
    version: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The version being approved; a stale one answers 409'),
  })
  .strict();

const PublishedEntry = z.object({ schema: z.string(), id: z.string(), version: z.number().int() });
export const PublishResult = z.object({
  stage: z.string(),
  published: z.array(PublishedEntry).describe('The item first, then the references published with it'),
  item: Item,
});
export type PublishResult = z.infer<typeof PublishResult>;
export const UnpublishResult = z.object({ stage: z.string(), item: Item });
export const PublishBody = z
  .object({
    publishRefs: z
      .boolean()
      .default(false)
      .describe('Also publish referenced items not CURRENT in the stage'),
  })
  .strict();

/** Spec §7: POST /fun/publish/publish/ {id, schemaType, destination, publishRefs}. */
export const FunPublishBody = z
  .object({
    id: ItemId,
    schemaType: SchemaName,
    destination: StageParam.describe('Stage label or value'),
    publishRefs: z.boolean().default(false),
  })
  .strict();
