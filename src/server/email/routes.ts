import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmailImageQuery,
  EmailPreviewAnswer,
  EmailPreviewQuery,
  ItemTestSendBody,
  MergeTagList,
  TestSendAnswer,
  TestSendBody,
  TestSendList,
  TestSendProvider,
} from '@shared/api/email';
import { FunQuery, ItemId } from '@shared/api/items';
import type { AppContext } from '../context';
import { FILE_NOT_FOUND } from '../files/service';
import { notFound } from '../http/errors';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as email from './service';

const tags = ['email'];
const EmailParams = WorkspaceParams.extend({ id: ItemId });
/** Sends carry whole HTML documents. */
const bodyLimit = 5 * 1024 * 1024;

/** `/api/v1/workspaces/{ws}/emails/…`, under the workspace scope: test sends of an email item, their history, and merge tags. */
export async function emailRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/emails/:id/test-send',
    {
      schema: {
        tags,
        summary: 'Sends the email item to its test addresses (or the given ones) through a provider',
        params: EmailParams,
        body: ItemTestSendBody,
        response: { 200: TestSendAnswer },
      },
    },
    async (request) => email.sendItemTest(ctx, request.access, request.params.id, request.body),
  );

  app.get(
    '/emails/:id/preview',
    {
      schema: {
        tags,
        summary:
          'The saved email item as a test send would send it: subject, preheader, HTML document, text, and the HTML size against Gmail’s 102 KB clipping',
        params: EmailParams,
        querystring: EmailPreviewQuery,
        response: { 200: EmailPreviewAnswer },
      },
    },
    async (request) => email.previewItem(ctx, request.access, request.params.id, request.query),
  );

  app.get(
    '/emails/:id/test-sends',
    {
      schema: {
        tags,
        summary: 'The recent test sends of an email item, newest first',
        params: EmailParams,
        response: { 200: TestSendList },
      },
    },
    async (request) => email.listItemTestSends(ctx, request.access, request.params.id),
  );

  app.get(
    '/emails/merge-tags',
    {
      schema: {
        tags,
        summary: "Merge tags an email may use: the workspace's customer profile attribute keys",
        params: WorkspaceParams,
        response: { 200: MergeTagList },
      },
    },
    async (request) => email.listMergeTags(ctx, request.access),
  );
}

/** Shared caches keep a delivered image an hour and may serve it a day longer while they revalidate. */
const DELIVERED_IMAGE_CACHING = 'public, max-age=3600, stale-while-revalidate=86400';

/** `/fun/emailImage/`: public, the signed link is the credential (recipients are not members). */
export async function emailImageRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/emailImage/',
    {
      schema: {
        tags,
        summary:
          'An image of a sent email or of delivered content, for whoever holds its signed link: the file as uploaded, or the variant w, h, fit, format and q ask for',
        querystring: EmailImageQuery,
      },
    },
    async (request, reply) => {
      const { id, __marquee_workspace: workspaceId, stage, schema, item, sig, ...variant } = request.query;
      const deliveredIn = stage && schema && item ? { stage, schema, id: item } : undefined;
      // A delivered link names all three of its item; a link naming only some of them is no link.
      if (!deliveredIn && (stage ?? schema ?? item) !== undefined) throw notFound(FILE_NOT_FOUND);
      const image = await email.emailImage(
        ctx,
        { workspaceId, storageName: id, item: deliveredIn, sig },
        { ...variant, accept: request.headers.accept },
      );
      reply
        .header('content-type', image.contentType)
        // A sent email's image never changes; a delivered one stops loading when its item is unpublished.
        .header(
          'cache-control',
          deliveredIn ? DELIVERED_IMAGE_CACHING : 'public, max-age=31536000, immutable',
        )
        // Mail clients and websites show it from their own origin, and a page may fetch it too.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('access-control-allow-origin', '*')
        .header('etag', image.etag)
        .header('x-marquee-cache', image.cache);
      if (image.byAccept) reply.header('vary', 'Accept');
      if (request.headers['if-none-match'] === image.etag) {
        if (!Buffer.isBuffer(image.body)) image.body.destroy();
        return reply.code(304).send();
      }
      reply.header('content-length', String(image.size));
      return reply.send(image.body);
    },
  );
}

/**
 * Spec §7 `POST /fun/testSend/{provider}` with `{recipients, subject, text, html}`, under the function
 * service's workspace scope: 200 means handed over.
 */
export async function emailFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

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
    async (request) => email.sendTest(ctx, request.access, request.params.provider, request.body),
  );
}
