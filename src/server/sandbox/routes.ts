import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RunTestAnswer, RunTestBody, RunTestQuery } from '@shared/api/sandbox';
import type { AppContext } from '../context';
import { runTest } from './service';

/** Spec §7: `POST /fun/testCollection/runTest` with `{fun}`, under the function service's workspace scope. */
export async function sandboxFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/testCollection/runTest',
    {
      schema: {
        tags: ['sandbox'],
        description:
          'Runs the body of an async function in a QuickJS sandbox (no network, files or process; 1 s, 32 MB); ' +
          'for members who may edit the test collection; 429 past the per-user limit',
        querystring: RunTestQuery,
        body: RunTestBody,
        response: { 200: RunTestAnswer },
      },
    },
    (request) => runTest(ctx, request.access, request.body.fun),
  );
}
