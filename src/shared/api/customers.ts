import { z } from 'zod';
import { CriteriaGroup } from '../criteria/schema';
import { Batch } from './workspaces';

/**
 * The HTTP contract of customer data and audiences: imports, live events, profiles and
 * audience sizes under `/api/v1/workspaces/{ws}/…`.
 */

/** Most events one live tracking call takes. */
const MAX_LIVE_EVENTS = 1000;
/** Most row errors a batch keeps. */
export const MAX_BATCH_ERRORS = 100;
/** Profiles a sample answers. */
export const SAMPLE_SIZE = 10;

export const ImportAnswer = z.object({ batch: Batch });

/** The refusals of a member without a customer data right (403). */
export const CUSTOMER_DATA_MESSAGES = {
  read: 'You do not have permission to read customer data',
  export: 'You do not have permission to export customer data',
  erase: 'You do not have permission to erase customer data',
} as const;

export const ProfileId = z.string().min(1).max(200).describe("The profile's external id");

/** Characters from which a profile search looks inside ids and attribute values (trigrams). */
export const PROFILE_SEARCH_MIN = 3;

const EMAIL_CONSENT_STATE = z.enum(['subscribed', 'unsubscribed', 'unknown']);
export type EmailConsentState = z.infer<typeof EMAIL_CONSENT_STATE>;

/** How files spell consent, compared without case, spaces or punctuation: yes/no, true/false, 1/0, opted in/out. */
const CONSENT_WORDS: Record<string, EmailConsentState> = {
  subscribed: 'subscribed',
  subscribe: 'subscribed',
  yes: 'subscribed',
  y: 'subscribed',
  true: 'subscribed',
  '1': 'subscribed',
  optedin: 'subscribed',
  optin: 'subscribed',
  unsubscribed: 'unsubscribed',
  unsubscribe: 'unsubscribed',
  no: 'unsubscribed',
  n: 'unsubscribed',
  false: 'unsubscribed',
  '0': 'unsubscribed',
  optedout: 'unsubscribed',
  optout: 'unsubscribed',
  unknown: 'unknown',
};

/** The consent a file's value gives (`Opted In`, `no`, `1`…), or undefined when it names none. */
export const consentFromText = (text: string): EmailConsentState | undefined =>
  CONSENT_WORDS[text.toLowerCase().replace(/[^a-z0-9]/g, '')];
const EmailConsent = z.object({
  state: EMAIL_CONSENT_STATE,
  changedAt: z.string().nullable().describe('When it last changed; null while never set'),
  source: z.string().nullable().describe('How it changed: import, member or api'),
});

export const LiveEvent = z.object({
  profileId: ProfileId,
  event: z.string().min(1).max(200).describe('The key of a behavioral-event item'),
  at: z.string().describe('ISO date-time'),
  properties: z.record(z.string(), z.unknown()).optional(),
  id: z
    .string()
    .max(200)
    .optional()
    .describe(
      "The source's own id for the event: an event sent again with the same id is stored once. Without one, an event is the same as another with the same profile, event, at and properties",
    ),
});
export const LiveEventsBody = z.object({
  events: z.array(LiveEvent).min(1).max(MAX_LIVE_EVENTS),
});
export const LiveEventsAnswer = z.object({
  accepted: z.number(),
  refused: z
    .array(z.object({ index: z.number(), message: z.string() }))
    .optional()
    .describe('Events not written: those of a profile id on the suppression list'),
});

const Profile = z.object({
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
type Profile = z.infer<typeof Profile>;

const CustomerEvent = z.object({
  event: z.string(),
  at: z.string(),
  properties: z.record(z.string(), z.unknown()),
});

export const ProfilePage = z.object({
  profiles: z.array(Profile),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
export const ProfilesQuery = z.object({
  search: z
    .string()
    .max(200)
    .optional()
    .describe(
      `From ${PROFILE_SEARCH_MIN} characters: profiles whose id or a string attribute (an email address, a name) holds this, any case, the id's own profile first (one page). Shorter: profiles whose id starts with this.`,
    ),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export const ProfileDetail = z.object({
  profile: Profile,
  events: z.array(CustomerEvent).describe('The latest 50 events, newest first'),
  consent: z.object({ email: EmailConsent }),
  labels: z
    .array(z.object({ key: z.string(), label: z.string(), type: z.string() }))
    .describe("The workspace's profile attributes (customer-profile-attribute items), by label"),
  eventTypes: z
    .array(z.object({ key: z.string(), label: z.string() }))
    .describe("The workspace's behavioral events, by label (the timeline's filter)"),
  abilities: z.object({
    canEdit: z.boolean().describe('May edit attributes and consent, and erase (members who may import)'),
  }),
});
export type ProfileDetail = z.infer<typeof ProfileDetail>;

export const ProfileEventsQuery = z.object({
  event: z.string().min(1).max(200).optional().describe('Only events of this key'),
  cursor: z.string().max(400).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export const ProfileEventsPage = z.object({
  events: z.array(CustomerEvent).describe('Newest first'),
  nextCursor: z.string().nullable(),
});

export const ProfileAudiences = z.object({
  audiences: z
    .array(z.object({ id: z.string(), label: z.string() }))
    .describe('The audiences whose criteria the profile meets now'),
});

export const ProfileEditBody = z.object({
  updatedAt: z
    .string()
    .min(1)
    .max(64)
    .describe("The profile's updatedAt as read; another change since then answers 409"),
  attributes: z
    .record(z.string().max(200), z.unknown())
    .optional()
    .describe('Values by attribute key, converted by the attribute type; null removes one'),
  emailConsent: EMAIL_CONSENT_STATE.optional(),
});

export const EraseProfileOptions = z.object({
  suppress: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((value) => value === true || value === 'true')
    .describe('Keep the id on the suppression list, so a later import or tracking call cannot bring it back'),
});
export const EraseProfileAnswer = z.object({
  erased: z.literal(true),
  events: z.number().describe('Events deleted'),
  suppressed: z.boolean(),
});

export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'erased', 'manual'] as const;
/** The longest note a suppression keeps, a member's or (cut to it) what an email provider reported. */
export const SUPPRESSION_NOTE_MAX = 500;
export const Suppression = z.object({
  id: z.string(),
  profileId: z.string().nullable(),
  email: z.string().nullable(),
  reason: z.enum(SUPPRESSION_REASONS),
  note: z.string().nullable(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
});
export type Suppression = z.infer<typeof Suppression>;
export const SuppressionPage = z.object({
  suppressions: z.array(Suppression),
  nextCursor: z.string().nullable(),
  abilities: z.object({ canManage: z.boolean() }),
});
export const SuppressionsQuery = z.object({
  search: z.string().max(200).optional().describe('Entries whose profile id or email starts with this'),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const SuppressionBody = z
  .object({
    profileId: ProfileId.optional(),
    email: z.email({ error: 'email: enter an email address' }).max(320).optional(),
    reason: z.enum(SUPPRESSION_REASONS).default('manual'),
    note: z.string().max(SUPPRESSION_NOTE_MAX).optional(),
  })
  .refine((body) => body.profileId || body.email, { error: 'Give a profile id, an email address or both' });
export const SuppressionAnswer = z.object({ suppression: Suppression });

export const SizeBody = z.object({
  /** The root group of a criteria rule tree (spec §3). */
  criteria: CriteriaGroup,
  asOf: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('The time rules are evaluated at; now by default'),
});
export const SizeAnswer = z.object({
  size: z.number().describe('Matching profiles'),
  profiles: z.number().describe('All profiles of the workspace'),
});
export type SizeAnswer = z.infer<typeof SizeAnswer>;
export const SampleAnswer = z.object({ profiles: z.array(Profile) });
export const AudienceSizes = z.object({
  sizes: z
    .record(z.string(), z.number().nullable())
    .describe('Size per audience id; null when its criteria are invalid'),
  profiles: z.number(),
});

/** What the rule builder offers: the workspace's attributes, events and audiences. */
export const CriteriaDefinitions = z.object({
  attributes: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      key: z.string(),
      type: z.enum(['number', 'string', 'categorical', 'boolean', 'array', 'date']),
      options: z.array(z.string()),
    }),
  ),
  events: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      key: z.string(),
      properties: z.array(
        z.object({ name: z.string(), type: z.enum(['string', 'number', 'boolean', 'date', 'array']) }),
      ),
    }),
  ),
  audiences: z.array(z.object({ id: z.string(), label: z.string() })),
});
export type CriteriaDefinitions = z.infer<typeof CriteriaDefinitions>;
