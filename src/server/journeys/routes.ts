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
  JourneyStartPlan,
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
          '`expired: paused` in the results. Without one every wait runs on resume. While an older version ' +
          'still runs, its runs finish on it unless the optional `migrate` (see `start-plan`) moves those ' +
          'waiting at a step to a step of the new version, in the same transaction: to a step of the same ' +
          'kind a wait keeps its due time (and an email held by the caps its deadline); to another kind the ' +
          'step is reached afresh, as if the profile had just arrived. A run is never mailed the message of ' +
          'an email step again that it got at the step of the same id on an older version (`skipped: sent ' +
          'before`). 400 names the version or step a `migrate` does not match.',
        params: JourneyParams,
        body: StartJourneyBody,
        response: { 200: JourneyStateAnswer },
      },
    },
    async (request) => journeys.startJourney(ctx, request.access, request.params.id, request.body ?? {}),
  );

  app.get(
    '/journeys/:id/start-plan',
    {
      schema: {
        tags,
        description:
          'What starting the current version would do while older versions still run (publish rights on ' +
          'journey): per older running or paused version and per step, the profiles waiting there now and ' +
          'where they go by default — the step of the same id in the new version when it is of the same ' +
          'kind, else null (they finish on the older version). Send it, changed or not, as the start’s ' +
          '`migrate`. 409 when the current version was started already. Reads only.',
        params: JourneyParams,
        response: { 200: JourneyStartPlan },
      },
    },
    async (request) => journeys.startPlan(ctx, request.access, request.params.id),
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

  limitRoutes(instance, ctx);
}

/** The workspace's caps, quiet hours and webhook secret of journey email. */
function limitRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['journeys'];

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
