import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EnterJourneyAnswer,
  EnterJourneyBody,
  JOURNEY_MESSAGES,
  JourneyLimits,
  JourneyLimitsAnswer,
  JourneyResults,
  JourneyStateAnswer,
  StartJourneyBody,
} from '@shared/api/journeys';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as journeys from './service';
import * as limits from './limits';

const JourneyParams = WorkspaceParams.extend({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: JOURNEY_MESSAGES.notFound }),
});
const JourneyAction = z.enum(['pause', 'resume', 'stop']);

export async function journeyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['journeys'];

  app.post(
    '/journeys/:id/start',
    {
      schema: {
        tags,
        description:
          "Starts the journey's current, fully approved version (publish rights on journey): profiles enter " +
          'it from then on. 400 names the step a definition is incomplete at. The optional `pauseLimit` ' +
          'decides what a resume does with the waits that came due while the journey was paused: those at ' +
          'most `seconds` past their time run; those further past are skipped to the next step (an email ' +
          'step is not sent; `skip`) or end the run (`exit`), with the outcome `skipped: paused` or ' +
          '`expired: paused` in the results. Without one every wait runs on resume.',
        params: JourneyParams,
        body: StartJourneyBody,
        response: { 200: JourneyStateAnswer },
      },
    },
    async (request) => journeys.startJourney(ctx, request.access, request.params.id, request.body ?? {}),
  );

  app.post(
    '/journeys/:id/:action',
    {
      schema: {
        tags,
        description:
          'Pauses (no step runs; waits keep their time), resumes or stops (every run ends) the journey ' +
          '(publish rights on journey).',
        params: JourneyParams.extend({ action: JourneyAction }),
        response: { 200: JourneyStateAnswer },
      },
    },
    async (request) => journeys.changeJourney(ctx, request.access, request.params.id, request.params.action),
  );

  app.post(
    '/journeys/:id/enter',
    {
      schema: {
        tags,
        description:
          "Enters profiles (by id) into the journey's running version, as its re-entry rule allows " +
          '(publish rights on journey). 400 when a profile does not exist.',
        params: JourneyParams,
        body: EnterJourneyBody,
        response: { 200: EnterJourneyAnswer },
      },
    },
    async (request) => journeys.enterJourney(ctx, request.access, request.params.id, request.body),
  );

  app.get(
    '/journeys/:id/results',
    {
      schema: {
        tags,
        description:
          'Per started version and step: profiles entered, waiting, completed, exited and converted.',
        params: JourneyParams,
        response: { 200: JourneyResults },
      },
    },
    async (request) => journeys.journeyResults(ctx, request.access, request.params.id),
  );

  app.get(
    '/journey-limits',
    {
      schema: {
        tags,
        description:
          "The workspace's caps and quiet hours on journey email (any member; managers also get the secret " +
          'webhook steps sign with). A capped or quiet-hour email waits, and expires after its step’s ' +
          '`deferLimitSeconds`.',
        params: WorkspaceParams,
        response: { 200: JourneyLimitsAnswer },
      },
    },
    async (request) => limits.getJourneyLimits(ctx, request.access),
  );

  app.put(
    '/journey-limits',
    {
      schema: {
        tags,
        description:
          'Sets the caps (journey emails a profile gets at most in any 24 hours, any 7 days, across all ' +
          'journeys), the quiet hours (in the profile’s `timezone` attribute, else the workspace’s ' +
          '`timeZone`) and that time zone. Managers only.',
        params: WorkspaceParams,
        body: JourneyLimits,
        response: { 200: JourneyLimitsAnswer },
      },
    },
    async (request) => limits.putJourneyLimits(ctx, request.access, request.body),
  );
}
