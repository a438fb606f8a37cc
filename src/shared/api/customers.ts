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

export const ProfileId = z.string().min(1).max(200).describe("The profile's external id");

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
export const LiveEventsAnswer = z.object({ accepted: z.number() });

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
  search: z.string().max(200).optional().describe('Profiles whose id starts with this'),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export const ProfileDetail = z.object({
  profile: Profile,
  events: z.array(CustomerEvent).describe('The latest 50 events, newest first'),
});

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
