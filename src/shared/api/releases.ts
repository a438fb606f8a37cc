import { z } from 'zod';

/** The HTTP contract of releases: items published or unpublished together in one stage, all or nothing. */

const RELEASE_STATES = ['draft', 'published', 'reverted'] as const;
const SCHEDULE_STATES = ['pending', 'running', 'done', 'refused', 'cleared'] as const;
const ENTRY_ACTIONS = ['publish', 'unpublish'] as const;

/** At most this many entries are added or removed in one request. */
const MAX_ENTRIES_PER_REQUEST = 1000;

export const RELEASE_MESSAGES = {
  notFound: 'Release not found',
  stale: 'This release was changed by someone else. Reload it and try again.',
  published: 'This release is published. Revert it before changing it.',
  notPublished: 'This release is not published',
  empty: 'This release has no entries',
  blocked: 'This release cannot be published yet',
  noRights: 'You do not have permission to publish any item type',
  itemNotFound: (id: string) => `Item "${id}" not found`,
  inThePast: 'publishAt: Choose a time in the future',
  changedSince: (names: string[]) =>
    `Published again since this release, so a revert would overwrite newer work: ${
      names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ')
    }`,
  schedulerGone: (name: string) => `${name} is no longer a member of the workspace`,
  cannotChange: (what: string) =>
    `You do not have permission to publish ${what}, so you cannot change this release's entries, stage or time`,
  scheduleCleared: (changer: string, scheduler: string) =>
    `${changer} changed this release after ${scheduler} scheduled it, so it does not publish until it is scheduled again`,
  notScheduled: 'This release is no longer scheduled to publish now',
} as const;

const PublishAt = z.iso
  .datetime({ offset: true, error: 'publishAt: Not a date and time' })
  .nullable()
  .describe('When the release is meant to go out (ISO 8601 with its offset)');
const PublishAtTz = z.string().max(100).nullable().describe('The time zone publishAt was chosen in');

const ReleaseFields = {
  name: z.string().trim().min(1, { error: 'name: Name is required' }).max(200),
  description: z.string().max(5000).default(''),
  stage: z.string().trim().min(1, { error: 'stage: Choose a stage' }).max(60),
  publishAt: PublishAt.default(null),
  publishAtTz: PublishAtTz.default(null),
};

export const CreateReleaseBody = z.object(ReleaseFields).strict();
export type CreateReleaseBody = z.input<typeof CreateReleaseBody>;

export const UpdateReleaseBody = z
  .object({
    name: ReleaseFields.name.optional(),
    description: z.string().max(5000).optional(),
    stage: ReleaseFields.stage.optional(),
    // Left out, the time stays as it is (a default would clear it).
    publishAt: PublishAt.optional().describe(
      'A new time schedules the release to run with the caller’s rights; its time again schedules a cleared release again',
    ),
    publishAtTz: PublishAtTz.optional(),
    updatedAt: z.string().max(40).describe('updatedAt of the release as read; 409 when it changed since'),
  })
  .strict();
export type UpdateReleaseBody = z.input<typeof UpdateReleaseBody>;

const ReleaseEntryInput = z
  .object({
    schema: z.string().min(1).max(100),
    itemId: z.string().min(1).max(200),
    version: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe('The version to publish; null for the latest at publish time'),
    action: z.enum(ENTRY_ACTIONS).default('publish'),
  })
  .strict();

export const AddEntriesBody = z
  .object({ entries: z.array(ReleaseEntryInput).min(1).max(MAX_ENTRIES_PER_REQUEST) })
  .strict();
export type AddEntriesBody = z.input<typeof AddEntriesBody>;

export const RemoveEntriesBody = z
  .object({ itemIds: z.array(z.string().min(1).max(200)).min(1).max(MAX_ENTRIES_PER_REQUEST) })
  .strict();
export type RemoveEntriesBody = z.input<typeof RemoveEntriesBody>;

export const PublishReleaseBody = z
  .object({
    publishRefs: z
      .boolean()
      .default(false)
      .describe('Also publish referenced items that are not current in the stage'),
  })
  .strict();

export const ReleaseEntry = z.object({
  schema: z.string(),
  itemId: z.string(),
  label: z.string().nullable(),
  action: z.enum(ENTRY_ACTIONS),
  version: z.number().int().nullable().describe('The pinned version; null for the latest at publish time'),
  currentVersion: z
    .number()
    .int()
    .nullable()
    .describe('The item’s current version; null when it was deleted'),
  hasNewerVersion: z.boolean().describe('The item was saved after its version was pinned'),
  fullyApproved: z.boolean().describe('The version to publish is approved by every role that must'),
  canPublish: z.boolean().describe('The caller may publish this item’s schema'),
  stageVersion: z.number().int().nullable().describe('The version in the release’s stage now'),
  previousVersion: z.number().int().nullable().describe('What was in the stage before the release published'),
  blockers: z.array(z.string()).describe('Why this entry keeps the release from publishing'),
  addedBy: z.string().nullable().describe('Who added the entry or last changed its version or action'),
  addedByName: z.string().nullable(),
});
export type ReleaseEntry = z.infer<typeof ReleaseEntry>;

export const ReleaseSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  stage: z.string(),
  publishAt: z.string().nullable(),
  publishAtTz: z.string().nullable(),
  state: z.enum(RELEASE_STATES),
  entryCount: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
  scheduleStatus: z
    .enum(SCHEDULE_STATES)
    .nullable()
    .describe(
      'The publish at publishAt: pending, running, done, refused (lastError says why), or cleared by a change of its entries or stage by someone other than scheduledBy (lastError says who); null without a time',
    ),
  scheduledBy: z
    .string()
    .nullable()
    .describe(
      'Who set publishAt: the scheduled publish runs with their rights at that time; once cleared, who is to schedule it again',
    ),
  lastError: z.string().nullable().describe('Why the scheduled publish did not happen'),
  ranAt: z.string().nullable().describe('When the scheduled publish ran (or was refused)'),
});
export type ReleaseSummary = z.infer<typeof ReleaseSummary>;

export const Release = ReleaseSummary.extend({
  entries: z.array(ReleaseEntry),
  canPublish: z.boolean().describe('No entry blocks the release and the caller may publish it'),
  canChange: z
    .boolean()
    .describe(
      'The caller may change its entries, stage and time: it is not published and they may publish every entry',
    ),
});
export type Release = z.infer<typeof Release>;

export const ReleaseList = z.object({ releases: z.array(ReleaseSummary) });

export const ReleaseReference = z.object({
  schema: z.string(),
  itemId: z.string(),
  label: z.string().describe('The label the referring item keeps for it'),
  currentVersion: z.number().int(),
  stageVersion: z
    .number()
    .int()
    .nullable()
    .describe('The version in the release’s stage now; null when none'),
});
export type ReleaseReference = z.infer<typeof ReleaseReference>;

export const ReleaseReferences = z.object({
  references: z
    .array(ReleaseReference)
    .describe('Items the entries reference that are not current in the stage and not in the release'),
});
