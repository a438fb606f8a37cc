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
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as hooks from './service';

const HookParams = WorkspaceParams.extend({
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

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        description: 'Registers a webhook (managers); the signing secret is answered this once',
        params: WorkspaceParams,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await hooks.createWebhook(ctx, request.access, request.body)),
  );

  app.get(
    '/webhooks',
    { schema: { tags, params: WorkspaceParams, response: { 200: WebhookList } } },
    async (request) => hooks.listWebhooks(ctx, request.access),
  );

  app.patch(
    '/webhooks/:id',
    { schema: { tags, params: HookParams, body: PatchWebhookBody, response: { 200: WebhookSummary } } },
    async (request) => hooks.updateWebhook(ctx, request.access, request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        params: HookParams,
        response: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) },
      },
    },
    async (request) => hooks.deleteWebhook(ctx, request.access, request.params.id),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        description: 'The delivery log: status, response code, tries and body, newest first',
        params: HookParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (request) => hooks.listDeliveries(ctx, request.access, request.params.id, request.query),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
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
        .send(await hooks.redeliver(ctx, request.access, request.params.id, request.params.deliveryId)),
  );
}
