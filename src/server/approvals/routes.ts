import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApproveBody, Approvals } from '@shared/api/items';
import type { AppContext } from '../context';
import { ITEM_PATH, ItemParams } from '../items/routes';
import { schemaIn } from '../items/scope';
import * as approvals from './service';

export async function approvalRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['approvals'];

  app.get(
    `${ITEM_PATH}/approvals`,
    { schema: { tags, params: ItemParams, response: { 200: Approvals } } },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      return approvals.getApprovals(ctx, scope, request.params.id);
    },
  );

  app.post(
    `${ITEM_PATH}/approvals`,
    {
      schema: {
        tags,
        description: 'Approves the current version as a role the caller holds',
        params: ItemParams,
        body: ApproveBody,
        response: { 200: Approvals },
      },
    },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      return approvals.approveItem(ctx, scope, request.params.id, request.body);
    },
  );
}
