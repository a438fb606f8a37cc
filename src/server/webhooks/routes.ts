import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedWebhook,
  CreateWebhookBody,
  PatchWebhookBody,
  WEBHOOK_MESSAGES,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookSummary,
} from '@shared/api/webhooks';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as hooks from './service';

const WsParams = z.object({ ws: WorkspaceId });
const HookParams = WsParams.extend({
  id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: WEBHOOK_MESSAGES.notFound }),
});
const DeliveryParams = HookParams.extend({
  deliveryId: z.uuid({ error: WEBHOOK_MESSAGES.deliveryNotFound }),
});
const DeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
});

export async function webhookRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  const access = (request: { user: Parameters<typeof loadWorkspaceAccess>[1]; params: { ws: string } }) =>
    loadWorkspaceAccess(ctx, request.user, request.params.ws);

  app.post(
    '/workspaces/:ws/webhooks',
    {
      schema: {
        tags,
        description: 'Registers a webhook (managers); the signing secret is answered this once',
        params: WsParams,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await hooks.createWebhook(ctx, await access(request), request.body)),
  );

  app.get(
    '/workspaces/:ws/webhooks',
    { schema: { tags, params: WsParams, response: { 200: WebhookList } } },
    async (request) => hooks.listWebhooks(ctx, await access(request)),
  );

  app.patch(
    '/workspaces/:ws/webhooks/:id',
    { schema: { tags, params: HookParams, body: PatchWebhookBody, response: { 200: WebhookSummary } } },
    async (request) => hooks.updateWebhook(ctx, await access(request), request.params.id, request.body),
  );

  app.delete(
    '/workspaces/:ws/webhooks/:id',
    {
      schema: {
        tags,
        params: HookParams,
        response: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) },
      },
    },
    async (request) => hooks.deleteWebhook(ctx, await access(request), request.params.id),
  );

  app.get(
    '/workspaces/:ws/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        description: 'The delivery log: status, response code, tries and body, newest first',
        params: HookParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (request) => hooks.listDeliveries(ctx, await access(request), request.params.id, request.query),
  );

  app.post(
    '/workspaces/:ws/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        description: 'Sends the delivery’s event again, as a new delivery',
        params: DeliveryParams,
        response: { 201: WebhookDelivery },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await hooks.redeliver(ctx, await access(request), request.params.id, request.params.deliveryId),
        ),
  );
}
