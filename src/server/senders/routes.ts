import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PatchSenderBody,
  PostalAddressBody,
  RecipientSettings,
  RecipientSettingsBody,
  SENDER_MESSAGES,
  Sender,
  SenderBody,
  SendingDomain,
  SendingSettings,
} from '@shared/api/senders';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as senders from './service';

const SenderParams = WorkspaceParams.extend({
  id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: SENDER_MESSAGES.notFound }),
});

export async function senderRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['senders'];

  app.get(
    '/senders',
    {
      schema: {
        tags,
        description: 'The senders, their domains with the DNS records to publish, and the postal address',
        params: WorkspaceParams,
        response: { 200: SendingSettings },
      },
    },
    async (request) => senders.listSending(ctx, request.access),
  );

  app.post(
    '/senders',
    {
      schema: {
        tags,
        description: 'Adds a sender (managers); a new domain gets a DKIM key pair',
        params: WorkspaceParams,
        body: SenderBody,
        response: { 201: Sender },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await senders.createSender(ctx, request.access, request.body)),
  );

  app.put(
    '/senders/postal-address',
    {
      schema: {
        tags,
        description: 'The postal address in the footer of every campaign (managers)',
        params: WorkspaceParams,
        body: PostalAddressBody,
        response: { 200: PostalAddressBody },
      },
    },
    async (request) => senders.savePostalAddress(ctx, request.access, request.body),
  );

  app.put(
    '/senders/recipients',
    {
      schema: {
        tags,
        description:
          "Who campaigns go to (managers): the attribute each profile's address is read from, and whether profiles whose consent is unknown are mailed",
        params: WorkspaceParams,
        body: RecipientSettingsBody,
        response: { 200: RecipientSettings },
      },
    },
    async (request) => senders.saveRecipientSettings(ctx, request.access, request.body),
  );

  app.patch(
    '/senders/:id',
    { schema: { tags, params: SenderParams, body: PatchSenderBody, response: { 200: Sender } } },
    async (request) => senders.updateSender(ctx, request.access, request.params.id, request.body),
  );

  app.delete(
    '/senders/:id',
    {
      schema: {
        tags,
        params: SenderParams,
        response: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) },
      },
    },
    async (request) => senders.deleteSender(ctx, request.access, request.params.id),
  );

  app.post(
    '/senders/:id/verify',
    {
      schema: {
        tags,
        description:
          "Looks the sender's domain up in DNS: verified when its SPF and DKIM records are as shown, " +
          'otherwise the problems found (managers)',
        params: SenderParams,
        response: { 200: SendingDomain },
      },
    },
    async (request) => senders.verifySender(ctx, request.access, request.params.id),
  );
}
