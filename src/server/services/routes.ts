import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGE_SIGN,
  FacebookInterestQuery,
  FacebookInterests,
  ProviderParams,
  ServiceParams,
  ServiceQuery,
  ServiceStatus,
  TokenExchangeAnswer,
  TokenExchangeQuery,
  XInterestQuery,
  XInterests,
} from '@shared/api/services';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import {
  AUTH_STATE_COOKIE,
  AUTH_STATE_PATH,
  authResultPage,
  deleteService,
  exchangeToken,
  facebookInterests,
  finishAuth,
  pingService,
  startAuth,
  xInterests,
} from './service';

const CallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  oauth_token: z.string().optional(),
  oauth_verifier: z.string().optional(),
  denied: z.string().optional(),
});

/**
 * Service connections and interest targeting under `/fun` (spec §7), under the function service's
 * workspace scope.
 */
export async function servicesFunRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['services'];

  app.get(
    '/auth/:provider',
    {
      schema: {
        tags,
        description:
          "Starts the provider's OAuth 2 authorization-code flow (state bound to the session, PKCE where supported) or, for X, OAuth 1.0a (the request token bound to the session); workspace managers only",
        params: ProviderParams,
        querystring: ServiceQuery,
      },
    },
    async (request, reply) => {
      const started = await startAuth(ctx, request.access, request.sessionHash, request.params.provider);
      reply.setCookie(AUTH_STATE_COOKIE, started.cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        path: AUTH_STATE_PATH,
        maxAge: started.maxAgeSeconds,
      });
      return reply.redirect(started.location);
    },
  );

  app.get(
    '/ping/:service',
    {
      schema: {
        tags,
        description: "Checks a service item's connection at the provider, refreshing expired tokens",
        params: ServiceParams,
        querystring: ServiceQuery,
        response: { 200: ServiceStatus },
      },
    },
    (request) => pingService(ctx, request.access, request.params.service),
  );

  app.delete(
    '/delete/:service',
    {
      schema: {
        tags,
        description: "Revokes a service item's grant at the provider where it can and clears the connection",
        params: ServiceParams,
        querystring: ServiceQuery,
        response: { 200: z.object({ revoked: z.boolean(), version: z.number() }) },
      },
    },
    (request) => deleteService(ctx, request.access, request.params.service),
  );

  app.get(
    '/interest/facebook',
    {
      schema: {
        tags,
        description: "Targeting search with the workspace's social network connection",
        querystring: FacebookInterestQuery,
        response: { 200: FacebookInterests },
      },
    },
    (request) => facebookInterests(ctx, request.access, request.query.searchtype, request.query.searchterm),
  );

  app.get(
    '/interest/x',
    {
      schema: {
        tags,
        description: "Interest targeting search with the workspace's microblogging connection",
        querystring: XInterestQuery,
        response: { 200: XInterests },
      },
    },
    (request) => xInterests(ctx, request.access, request.query.searchterm),
  );

  app.get(
    '/token/token-exchange',
    {
      schema: {
        tags,
        description: 'Exchanges a short-lived social network token for a long-lived one, answered sealed',
        querystring: TokenExchangeQuery,
        response: { 200: TokenExchangeAnswer },
      },
    },
    (request) => exchangeToken(ctx, request.access, request.query.token),
  );
}

/**
 * `/fun/auth/{provider}/callback`, the OAuth redirect: outside the workspace scope because the provider
 * sends no `__marquee_workspace`; the workspace comes from the state sealed in this session's cookie and
 * its manager access is checked there.
 */
export async function serviceCallbackRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['services'];

  app.get(
    '/auth/:provider/callback',
    {
      schema: {
        tags,
        description:
          'The OAuth redirect: exchanges the code, fetches the profile, seals the tokens and answers a page that posts {_sign, encTokens, profile} to the opener',
        params: ProviderParams,
        querystring: CallbackQuery,
      },
    },
    async (request, reply) => {
      let message: object;
      let status = 200;
      try {
        message = await finishAuth(
          ctx,
          request.user,
          request.sessionHash,
          request.params.provider,
          request.query,
          request.cookies[AUTH_STATE_COOKIE],
        );
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // The pop-up tells its opener why, so the field can show it (spec §8 warning).
        status = err.statusCode;
        message = { _sign: AUTH_MESSAGE_SIGN, error: err.message };
      }
      reply.clearCookie(AUTH_STATE_COOKIE, { path: AUTH_STATE_PATH });
      const nonce = crypto.randomBytes(16).toString('base64');
      return (
        reply
          .code(status)
          .header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'`)
          .header('cache-control', 'no-store')
          // The pop-up came back from the provider's origin; its page must still reach its opener.
          .header('cross-origin-opener-policy', 'unsafe-none')
          .type('text/html; charset=utf-8')
          .send(authResultPage(ctx, message, nonce))
      );
    },
  );
}
