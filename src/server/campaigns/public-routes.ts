import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CAMPAIGN_MESSAGES } from '@shared/api/campaigns';
import {
  EmailHookAnswer,
  SmtpBounceBody,
  TRACKING_MESSAGES,
  UnsubscribeAnswer,
} from '@shared/api/campaign-tracking';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { AppError, badRequest, notFound } from '../http/errors';
import { refuseUnsafeText } from '../http/input-guard';
import { sendgridEvents, smtpBounce } from './email-hooks';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './sendgrid-signature';
import * as tracking from './tracking-service';
import { badTokenPage, unsubscribePage, type UnsubscribeView } from './unsubscribe-page';

const TokenParams = z.object({ token: z.string().max(1000) });
const tags = ['email-tracking'];

/** A 1×1 transparent GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const NO_STORE = 'no-store, no-cache, must-revalidate, private';

/**
 * Unsubscribe requests per client address per minute (a provider's one-click posts come from few).
 * The routes read no session: a signed-in member's browser posts the page's form with `Origin: null`
 * (the page's no-referrer policy), and must not be refused for the cookie it holds.
 */
const UNSUBSCRIBE_CONFIG = { rateLimit: { max: 600, timeWindow: '1 minute' }, sessionless: true };

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/**
 * The unsubscribe routes answer a browser with the page and any other client (a mail provider's
 * one-click post, a script) with JSON; a link that is not valid gets the page or JSON of badToken.
 */
async function answerUnsubscribe(
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
  work: () => Promise<UnsubscribeView>,
) {
  reply.header('cache-control', NO_STORE);
  const html = wantsHtml(request);
  let view: UnsubscribeView;
  try {
    view = await work();
  } catch (err) {
    if (html && err instanceof AppError && err.code === 'not_found') {
      return reply.code(404).type('text/html; charset=utf-8').send(badTokenPage());
    }
    throw err;
  }
  if (html) return reply.type('text/html; charset=utf-8').send(unsubscribePage(request.params.token, view));
  const message = view.unsubscribed
    ? CAMPAIGN_MESSAGES.unsubscribed
    : view.resubscribed
      ? CAMPAIGN_MESSAGES.resubscribed
      : TRACKING_MESSAGES.unsubscribeQuestion(view.workspaceName);
  return reply.send({ message, unsubscribed: view.unsubscribed });
}

/**
 * What a recipient's mail client and provider call, at the root with no session: `/u/{token}`
 * (unsubscribe, RFC 8058 one-click included), `/t/o/{token}` and `/t/c/{token}` (open pixel, click
 * redirect). Opens and clicks have no rate limit: mail providers' image proxies fetch every
 * recipient's pixel from a few addresses, and a refused click would strand the reader.
 */
export async function emailPublicRoutes(instance: FastifyInstance, ctx: AppContext) {
  // A one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form (RFC 8058): its content is not needed.
  const ignoreBody = (_request: FastifyRequest, _body: string | Buffer, done: (err: null) => void) =>
    done(null);
  instance.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: 16 * 1024 },
    ignoreBody,
  );
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const unsubscribeResponse = { 200: UnsubscribeAnswer, 404: ErrorBody };

  app.get(
    '/u/:token',
    {
      config: UNSUBSCRIBE_CONFIG,
      schema: {
        tags,
        summary:
          "The unsubscribe page of a message's link (HTML to a browser): shows the state, changes nothing",
        params: TokenParams,
        response: unsubscribeResponse,
      },
    },
    (request, reply) =>
      answerUnsubscribe(request, reply, () => tracking.unsubscribeState(ctx, request.params.token)),
  );

  app.post(
    '/u/:token',
    {
      config: UNSUBSCRIBE_CONFIG,
      schema: {
        tags,
        summary: 'Unsubscribes the address in one request (RFC 8058 one-click, or the page’s button)',
        params: TokenParams,
        response: unsubscribeResponse,
      },
    },
    (request, reply) =>
      answerUnsubscribe(request, reply, () => tracking.unsubscribe(ctx, request.params.token, request.ip)),
  );

  app.post(
    '/u/:token/resubscribe',
    {
      config: UNSUBSCRIBE_CONFIG,
      schema: {
        tags,
        summary: 'Undoes an unsubscribe by the same link',
        params: TokenParams,
        response: unsubscribeResponse,
      },
    },
    (request, reply) =>
      answerUnsubscribe(request, reply, async () => ({
        ...(await tracking.resubscribe(ctx, request.params.token, request.ip)),
        resubscribed: true,
      })),
  );

  app.get(
    '/t/o/:token',
    {
      schema: {
        tags,
        summary: 'The open pixel: a 1×1 GIF; records the open (404 for a link that is not valid)',
        params: TokenParams,
      },
    },
    async (request, reply) => {
      await tracking.recordOpen(ctx, request.params.token, request.method === 'GET');
      // Webmail shows a message's images from its own origin (or a proxy's): the pixel is meant for them.
      return reply
        .header('cache-control', NO_STORE)
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('image/gif')
        .send(PIXEL);
    },
  );

  app.get(
    '/t/c/:token',
    {
      schema: {
        tags,
        summary: "A message's link: records the click and redirects (302) to the link's URL, or 404",
        params: TokenParams,
      },
    },
    async (request, reply) => {
      const url = await tracking.recordClick(ctx, request.params.token, request.method === 'GET');
      return reply.header('cache-control', NO_STORE).redirect(url, 302);
    },
  );
}

/**
 * `POST /hooks/email/{provider}`: bounces, complaints and unsubscribes reported by the email provider
 * (`sendgrid`: its Event Webhook, signed, 503 without SENDGRID_WEBHOOK_PUBLIC_KEY; `smtp`: one bounce
 * in SmtpBounceBody's form). The body is read raw, as the signature covers its bytes.
 */
export async function emailHookRoutes(instance: FastifyInstance, ctx: AppContext) {
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 16 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/hooks/email/:provider',
    {
      schema: {
        tags,
        summary: "An email provider's event webhook: sendgrid (Event Webhook) or smtp (one bounce)",
        params: z.object({ provider: z.string().max(100) }),
        response: { 200: EmailHookAnswer, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { provider } = request.params;
      if (provider === 'sendgrid') {
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        return sendgridEvents(
          ctx,
          body,
          { signature: header(SIGNATURE_HEADER), timestamp: header(TIMESTAMP_HEADER) },
          request.ip,
        );
      }
      if (provider === 'smtp') return smtpBounce(ctx, parseSmtpBounce(body), request.ip);
      throw notFound(TRACKING_MESSAGES.unknownProvider(provider));
    },
  );
}

function parseSmtpBounce(body: Buffer) {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest(TRACKING_MESSAGES.notJson);
  }
  // The body is read raw, past the guard every parsed body goes through.
  refuseUnsafeText(value);
  const parsed = SmtpBounceBody.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message);
  }
  return parsed.data;
}
