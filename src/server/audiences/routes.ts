import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AudienceSizes,
  CriteriaDefinitions,
  ProfileAudiences,
  ProfileId,
  SampleAnswer,
  SizeAnswer,
  SizeBody,
} from '@shared/api/customers';
import { ErrorBody } from '@shared/api/errors';
import { ItemId } from '@shared/api/items';
import type { AppContext } from '../context';
import { sendCsv } from '../http/csv-output';
import { schemaIn } from '../items/scope';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as audiences from './service';

/** `/api/v1/workspaces/{ws}/audiences/…`, under the workspace scope: live sizes, samples and the matching profiles of audiences. */
export async function audienceRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['audiences'];
  const params = WorkspaceParams;

  app.post(
    '/audiences/size',
    {
      schema: {
        tags,
        summary: 'Matching and total profiles of a criteria tree (one SQL statement)',
        params,
        body: SizeBody,
        response: { 200: SizeAnswer, 400: ErrorBody },
      },
    },
    async (request) => audiences.sizeOf(ctx, request.access, request.body.criteria, request.body.asOf),
  );

  app.post(
    '/audiences/sample',
    {
      schema: {
        tags,
        summary: 'Up to 10 matching profiles of a criteria tree',
        params,
        body: SizeBody,
        response: { 200: SampleAnswer, 400: ErrorBody },
      },
    },
    async (request) => audiences.sampleOf(ctx, request.access, request.body.criteria, request.body.asOf),
  );

  app.get(
    '/audiences/definitions',
    {
      schema: {
        tags,
        summary: 'The attributes, events and audiences criteria may refer to',
        params,
        response: { 200: CriteriaDefinitions },
      },
    },
    async (request) => audiences.criteriaDefinitions(ctx, request.access),
  );

  app.get(
    '/audiences/sizes',
    { schema: { tags, summary: "Every audience's size now", params, response: { 200: AudienceSizes } } },
    async (request) => audiences.audienceSizes(ctx, request.access),
  );

  app.get(
    '/audiences/:itemId/profiles.csv',
    {
      schema: {
        tags,
        summary: "Every profile matching an audience's criteria, as CSV (streamed)",
        params: WorkspaceParams.extend({ itemId: ItemId }),
      },
    },
    async (request, reply) => {
      const scope = schemaIn(request.access, 'audience');
      const lines = await audiences.audienceProfilesCsv(ctx, scope, request.params.itemId);
      return sendCsv(reply, `audience-${request.params.itemId}.csv`, lines);
    },
  );

  app.get(
    '/profiles/:profileId/audiences',
    {
      schema: {
        tags,
        summary: 'The audiences a profile is in now',
        params: WorkspaceParams.extend({ profileId: ProfileId }),
        response: { 200: ProfileAudiences, 404: ErrorBody },
      },
    },
    async (request) => audiences.profileAudiences(ctx, request.access, request.params.profileId),
  );
}
