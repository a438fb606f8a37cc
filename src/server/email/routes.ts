import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmailImageQuery,
  ItemTestSendBody,
  MergeTagList,
  TestSendAnswer,
  TestSendBody,
  TestSendList,
  TestSendProvider,
} from '@shared/api/email';
import { FunQuery, ItemId } from '@shared/api/items';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as email from './service';

const tags = ['email'];
const EmailParams = z.object({ ws: WorkspaceId, id: ItemId });
/** Sends carry whole HTML documents. */
const bodyLimit = 5 * 1024 * 1024;

/** `/api/v1/workspaces/{ws}/emails/…`: test sends of an email item, their history, and merge tags. */
export async function emailRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/workspaces/:ws/emails/:id/test-send',
    {
      schema: {
        tags,
        summary: 'Sends the email item to its test addresses (or the given ones) through a provider',
        params: EmailParams,
        body: ItemTestSendBody,
        response: { 200: TestSendAnswer },
      },
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.ws);
      return email.sendItemTest(ctx, access, request.params.id, request.body);
    },
  );

  app.get(
    '/workspaces/:ws/emails/:id/test-sends',
    {
      schema: {
        tags,
        summary: 'The recent test sends of an email item, newest first',
        params: EmailParams,
        response: { 200: TestSendList },
      },
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.ws);
      return email.listItemTestSends(ctx, access, request.params.id);
    },
  );

  app.get(
    '/workspaces/:ws/emails/merge-tags',
    {
      schema: {
        tags,
        summary: "Merge tags an email may use: the workspace's customer profile attribute keys",
        params: z.object({ ws: WorkspaceId }),
        response: { 200: MergeTagList },
      },
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.ws);
      return email.listMergeTags(ctx, access);
    },
  );
}

/** Spec §7 `POST /fun/testSend/{provider}` with `{recipients, subject, text, html}`: 200 means handed over. */
export async function emailFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/emailImage/',
    {
      schema: {
        tags,
        summary: 'An image of a sent email, for whoever holds its signed link (recipients are not members)',
        querystring: EmailImageQuery,
      },
    },
    async (request, reply) => {
      const { id, w, h, __marquee_workspace: workspaceId, sig } = request.query;
      const image = await email.emailImage(
        ctx,
        { workspaceId, storageName: id, w, h, sig },
        request.headers.accept,
      );
      reply
        .header('content-type', image.contentType)
        .header('content-length', String(image.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        // Mail clients show it from their own origin.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('vary', 'Accept');
      return reply.send(image.body);
    },
  );

  app.post(
    '/testSend/:provider',
    {
      schema: {
        tags,
        summary: 'Sends a test email through a provider (smtp: SMTP_URL or the outbox; sendgrid)',
        params: z.object({ provider: TestSendProvider }),
        querystring: FunQuery,
        body: TestSendBody,
        response: { 200: TestSendAnswer },
      },
      bodyLimit,
    },
    async (request) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.query.__marquee_workspace);
      return email.sendTest(ctx, access, request.params.provider, request.body);
    },
  );
}
