import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FunPublishBody,
  FunQuery,
  PublishBody,
  PublishResult,
  StageParam,
  UnpublishResult,
} from '@shared/api/items';
import type { AppContext } from '../context';
import { publishItem } from './publish-item';
import { ITEM_PATH, ItemParams } from '../items/routes';
import { schemaIn } from '../items/scope';
import { unpublishItem } from './service';

const StageParams = ItemParams.extend({ stage: StageParam });

export async function publishingRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['publishing'];

  app.post(
    `${ITEM_PATH}/publish/:stage`,
    {
      schema: {
        tags,
        description: 'Publishes the current version to the stage; 409 while approvals remain',
        params: StageParams,
        body: PublishBody.optional(),
        response: { 200: PublishResult },
      },
    },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      return publishItem(ctx, scope, request.params.id, request.params.stage, {
        publishRefs: request.body?.publishRefs ?? false,
      });
    },
  );

  app.delete(
    `${ITEM_PATH}/publish/:stage`,
    {
      schema: {
        tags,
        description: 'Removes the stage copy',
        params: StageParams,
        response: { 200: UnpublishResult },
      },
    },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      return unpublishItem(ctx, scope, request.params.id, request.params.stage);
    },
  );
}

/** Spec §7: `POST /fun/publish/publish/` with {id, schemaType, destination, publishRefs}. */
export async function publishingFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const options = {
    schema: { tags: ['fun'], querystring: FunQuery, body: FunPublishBody, response: { 200: PublishResult } },
  };
  for (const path of ['/publish/publish/', '/publish/publish']) {
    app.post(path, options, async (request) => {
      const { id, schemaType, destination, publishRefs } = request.body;
      return publishItem(ctx, schemaIn(request.access, schemaType), id, destination, { publishRefs });
    });
  }
}
