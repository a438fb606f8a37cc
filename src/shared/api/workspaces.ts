import { z } from 'zod';
import { LocaleSettings } from '../locales/locales';
import { CUSTOMER_DATA_RIGHTS } from '../permissions/customer-data-rights';
import { stageValue } from '../publishing/stages';
import { isReservedName, reservedNameMessage } from '../text/reserved-names';
import { DEFAULT_TIMEZONES } from '../time/zones';

export const WorkspaceId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'Workspace not found' })
  .describe('Workspace id, the URL slug');

const RoleSchema = z.object({
  name: z.string().trim().min(1, { error: 'Role name is required' }).max(80),
  canEdit: z.array(z.string().max(100)).max(500),
  canPublish: z.array(z.string().max(100)).max(500),
  mustApprove: z.array(z.string().max(100)).max(500),
  locales: z
    .array(z.string().max(35))
    .max(50)
    .optional()
    .describe(
      'When set, members holding only this role edit only these locales’ values; each one of the workspace’s locales',
    ),
  customerData: z
    .array(z.enum(CUSTOMER_DATA_RIGHTS))
    .max(CUSTOMER_DATA_RIGHTS.length * 2)
    .optional()
    .describe(
      'Rights over customers’ personal data: read (profiles, their events, suppressions, audience members, previews as a profile), export (audience CSV) and erase; export and erase imply read. Missing: none',
    ),
});
const RoleId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'Role ids are lowercase words joined by dashes' });
const RolesSchema = z.record(RoleId, RoleSchema);
/** Roles as a save sends them: ids that plain objects already answer to (`constructor`) are refused. */
const RolesInput = z.record(
  RoleId.refine((id) => !isReservedName(id), { error: (issue) => reservedNameMessage(String(issue.input)) }),
  RoleSchema,
);

export const Basics = z.object({
  name: z.string().trim().min(1, { error: 'Name is required' }).max(100),
  domains: z.array(z.string().max(100)).max(100),
  stages: z.array(z.string().trim().min(1).max(60)).max(20),
  timezones: z.array(z.string().max(100)).max(50),
  dateFormat: z.string().max(60),
  locales: LocaleSettings.optional().describe('Locales, default locale, fallbacks and localised fields'),
});
export type Basics = z.infer<typeof Basics>;

/** Stage labels as a save sends them: a label whose value (its kebab-case) is a reserved name is refused. */
const StagesInput = z.array(
  z
    .string()
    .trim()
    .min(1)
    .max(60)
    .refine((label) => !isReservedName(stageValue(label)), {
      error: (issue) => reservedNameMessage(String(issue.input)),
    }),
);

export const DEFAULT_BASICS = (name: string): Basics => ({
  name,
  domains: ['blogging'],
  stages: ['Live'],
  timezones: [...DEFAULT_TIMEZONES],
  dateFormat: 'relative',
});

const PermissionsSchema = z.object({
  canEdit: z.array(z.string()),
  canPublish: z.array(z.string()),
  canApprove: z.array(z.string()),
  canManageWorkspace: z.boolean(),
  roles: z.array(z.string()),
  editLocales: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe('Schemas the caller may edit in some locales only: schema → those locales'),
  customerData: z
    .array(z.enum(CUSTOMER_DATA_RIGHTS))
    .describe('The caller’s rights over customer data (managers: all)'),
});

export const Workspace = z.object({
  id: z.string(),
  name: z.string(),
  basics: Basics,
  roles: RolesSchema,
  oobe: z.object({ done: z.boolean() }),
  subscription: z.object({ plan: z.string() }),
  version: z.number().int().describe('Rises by 1 on each save; send it back as baseVersion'),
  modelVersion: z
    .number()
    .int()
    .describe('The version of the content model (0: the built-in one); GET …/content-model answers it'),
  __permissions: PermissionsSchema.describe("The caller's derived permissions in this workspace"),
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceSummary = z.object({
  id: z.string(),
  name: z.string(),
  oobeDone: z.boolean(),
  isWorkspaceManager: z.boolean(),
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;
export const WorkspaceList = z.object({ workspaces: z.array(WorkspaceSummary) });

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1, { error: 'Name is required' }).max(100),
});

export const PatchWorkspaceBody = z
  .object({
    basics: Basics.extend({ stages: StagesInput.max(20) })
      .partial()
      .optional(),
    roles: RolesInput.optional(),
    oobe: z.object({ done: z.boolean() }).optional(),
    confirmRemoveLocales: z
      .array(z.string().max(35))
      .max(50)
      .optional()
      .describe('Locales this save removes, confirmed: their values stay in history'),
    baseVersion: z
      .number()
      .int()
      .optional()
      .describe('The version this edit was based on; stale answers 409'),
  })
  .strict();
export type PatchWorkspaceBody = z.input<typeof PatchWorkspaceBody>;

export const Member = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  active: z.boolean(),
  roles: z.array(z.string()),
  isWorkspaceManager: z.boolean(),
});
export type Member = z.infer<typeof Member>;

export const Invitation = z.object({
  email: z.string(),
  roles: z.array(z.string()),
  isWorkspaceManager: z.boolean(),
  invitedAt: z.string(),
  invitedBy: z.string(),
});
export type Invitation = z.infer<typeof Invitation>;

export const MemberList = z.object({ members: z.array(Member), invitations: z.array(Invitation) });

export const InviteBody = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'Enter a valid email address' })),
  roles: z.array(z.string().max(100)).max(50).default([]),
  isWorkspaceManager: z.boolean().default(false),
});
export type InviteBody = z.input<typeof InviteBody>;

export const PatchMemberBody = z
  .object({
    active: z.boolean().optional(),
    roles: z.array(z.string().max(100)).max(50).optional(),
    isWorkspaceManager: z.boolean().optional(),
    displayName: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Send at least one of active, roles, isWorkspaceManager and displayName',
  });

export const Subscription = z.object({
  plan: z.string(),
  usage: z.object({ members: z.number(), items: z.number(), storageBytes: z.number() }),
});

const BatchRowError = z.object({
  line: z.number().describe('Line of the file (1 is the CSV header or the first NDJSON line)'),
  message: z.string(),
});
const BatchErrorGroup = z.object({
  message: z.string(),
  count: z.number().describe('Rows with this error'),
  lines: z.array(z.number()).describe('The first lines with it'),
});
export type BatchErrorGroup = z.infer<typeof BatchErrorGroup>;
const BATCH_STATUSES = ['queued', 'running', 'done', 'done with errors', 'failed'] as const;
/**
 * A bulk job: an import or a bulk image upload, with its progress, its row errors grouped by message
 * and its first 100 row errors.
 */
export const Batch = z.object({
  id: z.string(),
  kind: z.string().describe('profiles-import, customer-events-import, image-upload'),
  fileName: z.string().nullable(),
  status: z
    .enum(BATCH_STATUSES)
    .describe(
      'done: every row written; done with errors: some rows failed; failed: rows failed and none was written, or the job stopped',
    ),
  total: z.number().describe('Rows seen so far (processed + failed)'),
  processed: z.number().describe('Rows taken: stored plus duplicates'),
  stored: z.number().describe('Rows written'),
  duplicates: z
    .number()
    .describe('Rows skipped as duplicates: an event stored already, a profile row that changes nothing'),
  failed: z.number().describe('Rows refused, each with its error'),
  errors: z.array(BatchRowError).describe('The first 100 row errors'),
  errorGroups: z
    .array(BatchErrorGroup)
    .describe('Row errors by message, most rows first (at most 20 messages); all of them in …/errors.csv'),
  errorKinds: z.number().describe('How many different messages the row errors have'),
  bytesTotal: z.number().nullable().describe('Length of the uploaded body, when known'),
  bytesRead: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
});
export type Batch = z.infer<typeof Batch>;
export const BatchList = z.object({ batches: z.array(Batch) });
/** A bulk image upload opens its batch with the number of images it saves… */
export const StartUploadBatchBody = z.object({
  kind: z.literal('image-upload'),
  total: z.number().int().min(1).max(10_000),
});
/** …and reports what it saved and what failed (row numbers from 1) as it goes. */
export const UploadProgressBody = z.object({
  processed: z.number().int().min(0).max(10_000).default(0),
  failed: z.number().int().min(0).max(10_000).default(0),
  errors: z.array(BatchRowError).max(100).default([]),
  finished: z.boolean().default(false),
});
