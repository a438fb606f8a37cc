import { z } from 'zod';

/**
 * The HTTP contract of journeys and the shape of a journey's definition (the `definition` field of a
 * `journey` item, JSON text): its entry, re-entry rule, goal, and steps as a graph of typed nodes whose
 * named exits are joined to the next step by edges.
 */

export const JOURNEY_MESSAGES = {
  notFound: 'Journey not found',
  needsApproval: 'This version of the journey needs every approval before it can be started',
  cannotStart: 'You do not have permission to start Journeys',
  alreadyStarted: 'This version was started already: edit the journey to start a new version',
  notRunning: 'This journey is not running',
  notPaused: 'This journey is not paused',
  alreadyStopped: 'This journey is stopped already',
  apiEntryOnly: 'Profiles can be entered through the API only while the journey runs',
  badDefinition: (problem: string) => `The journey's definition is not valid: ${problem}`,
  unknownProfiles: (ids: string[]) => `No such profiles: ${ids.slice(0, 10).join(', ')}`,
  unknownTimeZone: (zone: string) => `Unknown time zone "${zone}"`,
  limitsManagersOnly: 'Only workspace managers can change the journey limits',
  migrateNotRunning: (version: string) =>
    `Version ${version} is not an older version still running: its runs cannot move`,
  migrateUnknownStep: (version: string, stepId: string) => `Version ${version} has no step "${stepId}"`,
  migrateUnknownTarget: (version: number, stepId: string, target: string) =>
    `Step "${stepId}": version ${version} has no step "${target}" to move its runs to`,
} as const;

const Key = z.string().trim().min(1).max(200);

/** A comparison of one property (an event's) or attribute (a profile's) with a value. */
export const JourneyCondition = z.object({
  key: Key.describe('The event property or profile attribute compared'),
  op: z.enum(['==', '!=', '>', '>=', '<', '<=', 'exists', 'not-exists', 'contains']),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
});
export type JourneyCondition = z.infer<typeof JourneyCondition>;

const Conditions = z.array(JourneyCondition).max(20).default([]);
const Seconds = z
  .number()
  .int()
  .min(0)
  .max(366 * 24 * 3600);

const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'a time of day is written HH:MM' })
  .describe('A time of day, HH:MM (24 hours)');
const OffsetDays = z
  .number()
  .int()
  .min(-366)
  .max(366)
  .default(0)
  .describe('Days after the date (negative: before it)');
const Yearly = z
  .boolean()
  .describe("Every year on the date's day and month (a birthday), rather than once on the date (a renewal)");
const ItemId = z.string().max(100);

const StepBase = {
  id: z.string().trim().min(1).max(100),
  name: z.string().max(200).optional(),
  position: z
    .object({ x: z.number(), y: z.number() })
    .optional()
    .describe('Where the canvas draws the step; laid out automatically when absent'),
};

export const JourneyStep = z.discriminatedUnion('type', [
  z.object({
    ...StepBase,
    type: z.literal('email'),
    email: z.string().optional().describe('The id of the email template sent'),
    sender: z.string().optional().describe('The id of the sender it is sent from'),
    subject: z.string().max(500).optional(),
    deferLimitSeconds: Seconds.optional().describe(
      'How long a message held back by the caps or quiet hours may wait before it expires (default a day)',
    ),
  }),
  z.object({ ...StepBase, type: z.literal('wait'), seconds: Seconds }),
  z.object({
    ...StepBase,
    type: z.literal('wait-until'),
    at: TimeOfDay.default('09:00'),
    weekdays: z
      .array(z.number().int().min(0).max(6))
      .max(7)
      .default([])
      .describe(
        "Days of the week allowed (0 Sunday … 6 Saturday); none: any day. In the profile's time zone",
      ),
  }),
  z.object({
    ...StepBase,
    type: z.literal('wait-until-date'),
    attribute: Key.optional().describe('The date attribute waited for'),
    offsetDays: OffsetDays,
    at: TimeOfDay.default('09:00'),
    yearly: Yearly.default(false),
  }),
  z.object({
    ...StepBase,
    type: z.literal('wait-for-event'),
    event: Key,
    conditions: Conditions,
    timeoutSeconds: Seconds,
  }),
  z.object({ ...StepBase, type: z.literal('branch'), conditions: Conditions }),
  z.object({
    ...StepBase,
    type: z.literal('audience-branch'),
    audience: ItemId.optional().describe('The audience whose members take the `yes` exit'),
  }),
  z.object({
    ...StepBase,
    type: z.literal('event-branch'),
    event: Key.optional().describe('The event looked for on the profile'),
    conditions: Conditions,
    withinDays: z.number().int().min(1).max(3650).default(30).describe('How many days back'),
  }),
  z.object({
    ...StepBase,
    type: z.literal('split'),
    paths: z
      .array(z.object({ key: Key, percent: z.number().min(0).max(100) }))
      .min(1)
      .max(4),
    holdoutPercent: z.number().min(0).max(100).default(0),
  }),
  z.object({
    ...StepBase,
    type: z.literal('update-attribute'),
    attribute: Key,
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  }),
  z.object({
    ...StepBase,
    type: z.literal('webhook'),
    url: z.string().max(2000).optional().describe('The URL the profile and journey are POSTed to, signed'),
  }),
  z.object({ ...StepBase, type: z.literal('exit') }),
]);
export type JourneyStep = z.infer<typeof JourneyStep>;

const JourneyEdge = z.object({
  from: z.string(),
  exit: z.string().default('next'),
  to: z.string(),
});

export const JourneyDefinition = z.object({
  entry: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('event'), event: Key, conditions: Conditions }),
    z.object({ kind: z.literal('api') }),
    z.object({
      kind: z.literal('audience'),
      audience: ItemId.optional().describe('The audience whose members enter'),
      on: z
        .enum(['enter', 'leave'])
        .default('enter')
        .describe('Enter on joining the audience, or on leaving it'),
    }),
    z.object({
      kind: z.literal('date'),
      attribute: Key.optional().describe('The date attribute (a birthday, a renewal)'),
      offsetDays: OffsetDays,
      at: TimeOfDay.default('09:00'),
      timeZone: z
        .enum(['profile', 'workspace'])
        .default('profile')
        .describe("Whose time zone `at` is in (the profile's falls back to the workspace's)"),
      yearly: Yearly.default(true),
    }),
  ]),
  entryAudience: ItemId.nullable()
    .optional()
    .describe('An audience a profile must be in, at the moment it would enter, to enter'),
  reentry: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('once') }),
      z.object({ mode: z.literal('after-exit') }),
      z.object({
        mode: z.literal('every'),
        days: z.number().int().min(1).max(3650),
      }),
    ])
    .default({ mode: 'once' }),
  goal: z.object({ event: Key, conditions: Conditions }).nullable().optional(),
  start: z.string().describe('The id of the first step'),
  steps: z.array(JourneyStep).min(1).max(200),
  edges: z.array(JourneyEdge).max(1000).default([]),
});
export type JourneyDefinition = z.infer<typeof JourneyDefinition>;

/** `POST …/journeys/{id}/enter`: profiles to enter now, as the entry's re-entry rule allows. */
export const EnterJourneyBody = z.object({
  profileIds: z.array(z.string().min(1).max(200)).min(1).max(1000),
});
export type EnterJourneyBody = z.infer<typeof EnterJourneyBody>;

export const EnterJourneyAnswer = z.object({
  entered: z.number().int().describe('Profiles that entered'),
  refused: z.number().int().describe('Profiles the re-entry rule kept out'),
});

/** What a resume does with a wait that came due while the journey was paused. */
export const PauseLimit = z.object({
  seconds: Seconds.describe('How long past its time a wait may be and still run on resume'),
  then: z
    .enum(['skip', 'exit'])
    .describe('A wait further past its time: skip to the next step (an email is not sent), or end the run'),
});
export type PauseLimit = z.infer<typeof PauseLimit>;

const StepId = z.string().min(1).max(100);

/**
 * Per older running version (its number as the key) and per step of it: the step of the new version
 * its waiting runs move to, or null (they finish on the old version, as do the steps not named).
 */
export const JourneyMigration = z
  .record(
    z.string().regex(/^\d{1,9}$/, { error: 'a version is a number' }),
    z.record(StepId, StepId.nullable()),
  )
  .describe(
    'Per older running version and step: the step of the new version its waiting runs move to, or null to ' +
      'finish on the old version (steps not named finish on it too)',
  );
export type JourneyMigration = z.infer<typeof JourneyMigration>;

/** `POST …/journeys/{id}/start`: optional settings of the version started. */
export const StartJourneyBody = z
  .object({
    pauseLimit: PauseLimit.nullable()
      .optional()
      .describe('Without one, every wait that came due during a pause runs on resume'),
    migrate: JourneyMigration.optional(),
  })
  .nullable()
  .optional();
export type StartJourneyBody = z.infer<typeof StartJourneyBody>;

const JOURNEY_STATES = ['running', 'paused', 'stopped'] as const;

const PlanStep = {
  stepId: z.string(),
  name: z.string().nullable(),
  type: z.string(),
};

/** `GET …/journeys/{id}/start-plan`: what starting the current version would do with the older versions' runs. */
export const JourneyStartPlan = z.object({
  journeyId: z.string(),
  version: z.number().int().describe('The version a start starts: the current one'),
  steps: z.array(z.object(PlanStep)).describe("The new version's steps, where waiting runs may move"),
  versions: z
    .array(
      z.object({
        version: z.number().int(),
        state: z.enum(JOURNEY_STATES),
        steps: z.array(
          z.object({
            ...PlanStep,
            waiting: z.number().int().describe('Profiles waiting at the step now'),
            target: z
              .string()
              .nullable()
              .describe(
                'Where they go by default: the step of the same id in the new version when it is of the same ' +
                  'kind, else null (they finish on this version)',
              ),
          }),
        ),
      }),
    )
    .describe('The older versions still running (or paused), newest first'),
});
export type JourneyStartPlan = z.infer<typeof JourneyStartPlan>;

export const JourneyRun = z.object({
  journeyId: z.string(),
  version: z.number().int(),
  state: z.enum(JOURNEY_STATES),
  startedAt: z.string(),
  startedBy: z.string(),
  pauseLimit: PauseLimit.nullable().optional(),
});
export type JourneyRun = z.infer<typeof JourneyRun>;

export const JourneyStateAnswer = z.object({
  journey: JourneyRun,
  moved: z.number().int().optional().describe('Runs a start moved from older versions to the new one'),
});

export const JourneyResults = z.object({
  journeyId: z.string(),
  state: z.enum(JOURNEY_STATES).nullable(),
  versions: z.array(
    z.object({
      version: z.number().int(),
      entered: z.number().int(),
      active: z.number().int(),
      converted: z.number().int(),
      steps: z.array(
        z.object({
          stepId: z.string(),
          type: z.string(),
          entered: z.number().int().describe('Profiles that reached the step'),
          waiting: z.number().int().describe('Profiles at the step now'),
          completed: z.number().int(),
          exited: z.number().int().describe('Profiles whose run ended at the step'),
          converted: z.number().int().describe('Profiles that reached the goal while at the step'),
          exits: z.record(z.string(), z.number().int()).describe('Profiles per exit taken'),
          outcomes: z
            .record(z.string(), z.number().int())
            .optional()
            .describe(
              'Profiles per outcome where a step has one: `deferred: cap`, `deferred: quiet-hours` (waiting), ' +
                '`expired: cap`, `expired: quiet-hours`, `skipped: paused`, `expired: paused`, ' +
                '`webhook: delivered`, `webhook: failed`, `moved: version N` (the run moved to a newer version ' +
                'from here), `skipped: sent before` (an email the run got at this step on an older version)',
            ),
        }),
      ),
    }),
  ),
});
export type JourneyResults = z.infer<typeof JourneyResults>;

const PerProfile = z.number().int().min(1).max(1000).nullable();
const Hour = z.number().int().min(0).max(23);

/**
 * A workspace's limits on journey email: at most `perDay` messages a profile in any 24 hours and
 * `perWeek` in any 7 days, across all journeys, and no message in the quiet hours (from `start` to
 * `end`, in the profile's time zone, else the workspace's `timeZone`).
 */
export const JourneyLimits = z.object({
  perDay: PerProfile.describe('Journey emails a profile gets at most in any 24 hours (null: no cap)'),
  perWeek: PerProfile.describe('Journey emails a profile gets at most in any 7 days (null: no cap)'),
  quietHours: z
    .object({ start: Hour.describe('First quiet hour'), end: Hour.describe('First hour sending again') })
    .nullable()
    .describe('Hours in which no journey email is sent; start after end spans midnight'),
  timeZone: z
    .string()
    .max(100)
    .describe("The workspace's time zone, for profiles without a `timezone` attribute of their own"),
});
export type JourneyLimits = z.infer<typeof JourneyLimits>;

export const JOURNEY_LIMIT_DEFAULTS: JourneyLimits = {
  perDay: null,
  perWeek: null,
  quietHours: null,
  timeZone: 'UTC',
};

export const JourneyLimitsAnswer = z.object({
  limits: JourneyLimits,
  webhookSecret: z
    .string()
    .optional()
    .describe('Managers only: the secret webhook steps sign with (the X-Marquee-Signature header)'),
});
export type JourneyLimitsAnswer = z.infer<typeof JourneyLimitsAnswer>;

/** The attribute a profile's own time zone is read from (an IANA name). */
export const PROFILE_TIMEZONE_ATTRIBUTE = 'timezone';
