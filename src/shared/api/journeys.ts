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
  }),
  z.object({ ...StepBase, type: z.literal('wait'), seconds: Seconds }),
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
  ]),
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

const JOURNEY_STATES = ['running', 'paused', 'stopped'] as const;

export const JourneyRun = z.object({
  journeyId: z.string(),
  version: z.number().int(),
  state: z.enum(JOURNEY_STATES),
  startedAt: z.string(),
  startedBy: z.string(),
});
export type JourneyRun = z.infer<typeof JourneyRun>;

export const JourneyStateAnswer = z.object({ journey: JourneyRun });

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
        }),
      ),
    }),
  ),
});
export type JourneyResults = z.infer<typeof JourneyResults>;
