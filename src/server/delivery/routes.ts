import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeliveredItemSchema, DeliveryList, DeliveryQuery } from '@shared/api/delivery';
import { ItemId, SchemaName, StageParam } from '@shared/api/items';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import * as delivery from './service';

const ListParams = z.object({ ws: WorkspaceId, stage: StageParam, schema: SchemaName });
const ItemParams = ListParams.extend({ id: ItemId });

/** Published content changes only on publish; clients revalidate with If-None-Match and get 304s. */
const CACHE_CONTROL = 'private, max-age=0, must-revalidate';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  'cross-origin-resource-policy': 'cross-origin',
};

function queryTextOf(request: FastifyRequest) {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: delivery.Rendered) {
  reply.header('etag', answer.etag).header('cache-control', CACHE_CONTROL);
  if (delivery.isNotModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/** `/delivery/v1/{ws}/{stage}/items/{schema}[/{id}]`: published copies for websites and apps, read with API keys. */
export async function deliveryRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['delivery'];
  const security = [{ apiKey: [] }];

  // Open CORS: any site may read with a key; errors carry the headers too so browsers can show them.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(CORS_HEADERS);
    done(null, payload);
  });
  app.options('/*', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'Authorization, If-None-Match',
        'access-control-max-age': '86400',
      })
      .send(),
  );

  app.get(
    '/:ws/:stage/items/:schema',
    {
      schema: {
        tags,
        security,
        description:
          'A keyset page of the items of a schema published in the stage. Filters: filter[field]=value, ' +
          'filter[field][gte]=value (eq, ne, gt, gte, lt, lte, in) on top-level fields.',
        params: ListParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveryList },
      },
    },
    async (request, reply) => {
      const key = await delivery.authenticateKey(ctx, request.headers.authorization);
      const { ws, stage, schema } = request.params;
      const target = delivery.resolveTarget(key, ws, stage, schema);
      return send(
        request,
        reply,
        await delivery.listDelivered(ctx, target, request.query, queryTextOf(request)),
      );
    },
  );

  app.get(
    '/:ws/:stage/items/:schema/:id',
    {
      schema: {
        tags,
        security,
        description: 'One item as published in the stage',
        params: ItemParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveredItemSchema },
      },
    },
    async (request, reply) => {
      const key = await delivery.authenticateKey(ctx, request.headers.authorization);
      const { ws, stage, schema, id } = request.params;
      const target = delivery.resolveTarget(key, ws, stage, schema);
      return send(
        request,
        reply,
        await delivery.getDelivered(ctx, target, id, request.query, queryTextOf(request)),
      );
    },
  );
}
