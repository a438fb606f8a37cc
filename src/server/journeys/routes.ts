import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EnterJourneyAnswer,
  EnterJourneyBody,
  JOURNEY_MESSAGES,
  JourneyResults,
  JourneyStateAnswer,
} from '@shared/api/journeys';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as journeys from './service';

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
          'it from then on. 400 names the step a definition is incomplete at.',
        params: JourneyParams,
        response: { 200: JourneyStateAnswer },
      },
    },
    async (request) => journeys.startJourney(ctx, request.access, request.params.id),
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
}
