import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OkResponse } from '@shared/api/auth';
import { WorkspaceId } from '@shared/api/workspaces';
import {
  SamlAcsBody,
  SamlConnectionBody,
  SsoCallbackQuery,
  SsoConnectionBody,
  SsoDiscoverQuery,
  SsoDiscovery,
  SsoSettings,
  SsoStartQuery,
  SsoTestBody,
  SsoTestResult,
} from '@shared/api/sso';
import type { AppContext } from '../context';
import { setSessionCookie } from '../auth/plugin';
import { AppError } from '../http/errors';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as sso from './service';

/** `/api/v1/workspaces/{ws}/sso…`: the workspace's single sign-on settings, managers only. */
export async function ssoSettingsRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['single sign-on'];

  app.get('/sso', { schema: { tags, params: WorkspaceParams, response: { 200: SsoSettings } } }, (request) =>
    sso.getSettings(ctx, request.access),
  );

  app.put(
    '/sso',
    {
      schema: {
        tags,
        description: "Saves the OpenID Connect connection once the provider's discovery answers with it",
        params: WorkspaceParams,
        body: SsoConnectionBody,
        response: { 200: SsoSettings },
      },
    },
    (request) => sso.saveSettings(ctx, request.access, request.body),
  );

  app.put(
    '/sso/saml',
    {
      schema: {
        tags,
        description:
          "Saves a SAML 2.0 connection in place of the workspace's connection, its signing certificate pinned",
        params: WorkspaceParams,
        body: SamlConnectionBody,
        response: { 200: SsoSettings },
      },
    },
    (request) => sso.saveSamlSettings(ctx, request.access, request.body),
  );

  app.post(
    '/sso/test',
    { schema: { tags, params: WorkspaceParams, body: SsoTestBody, response: { 200: SsoTestResult } } },
    (request) => sso.testConnection(ctx, request.access, request.body.issuer),
  );

  app.delete(
    '/sso',
    { schema: { tags, params: WorkspaceParams, response: { 200: OkResponse } } },
    async (request) => {
      await sso.deleteSettings(ctx, request.access);
      return { ok: true as const };
    },
  );
}

/**
 * A browser coming back from the provider is sent to the sign-in page with the refusal's message; other
 * clients get the error answer itself.
 */
async function backToSignIn<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  finish: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await finish();
  } catch (err) {
    if (!(err instanceof AppError) || !request.headers.accept?.includes('text/html')) throw err;
    reply.clearCookie(sso.SSO_STATE_COOKIE, { path: sso.SSO_STATE_PATH });
    reply.redirect(`${ctx.config.publicUrl}/auth/welcome?ssoError=${encodeURIComponent(err.message)}`);
    return undefined;
  }
}

const SsoWorkspaceParams = z.object({ ws: WorkspaceId });

/** `/api/v1/auth/sso…`: where the sign-in page sends an address, and the code flow's two legs. */
export async function ssoSignInRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute' } };
  const tags = ['single sign-on'];

  app.get(
    '/auth/sso/discover',
    {
      config: limited,
      schema: { tags, querystring: SsoDiscoverQuery, response: { 200: SsoDiscovery } },
    },
    (request) => sso.discoverForEmail(ctx, request.query.email),
  );

  app.get(
    '/auth/sso/:ws/start',
    {
      config: limited,
      schema: {
        tags,
        description:
          "Redirects to the workspace's OpenID provider (authorization code with PKCE, state and nonce; with link=1, links the identity to the signed-in account) or its SAML identity provider (an AuthnRequest)",
        params: SsoWorkspaceParams,
        querystring: SsoStartQuery,
      },
    },
    async (request, reply) => {
      const started = await sso.startSignIn(ctx, request.params.ws, {
        returnTo: request.query.returnTo,
        linkSessionHash: request.query.link ? request.sessionHash : null,
      });
      if (started.cookie)
        reply.setCookie(sso.SSO_STATE_COOKIE, started.cookie, {
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
          path: sso.SSO_STATE_PATH,
          maxAge: sso.SSO_STATE_TTL_S,
        });
      return reply.redirect(started.location);
    },
  );

  app.get(
    '/auth/sso/:ws/callback',
    {
      config: limited,
      schema: { tags, params: SsoWorkspaceParams, querystring: SsoCallbackQuery },
    },
    async (request, reply) => {
      const result = await backToSignIn(ctx, request, reply, () =>
        sso.finishSignIn(ctx, {
          workspaceId: request.params.ws,
          callbackUrl: sso.callbackUrlOf(ctx, request.params.ws, request.url),
          returnedState: request.query.state,
          cookie: request.cookies[sso.SSO_STATE_COOKIE],
          sessionHash: request.sessionHash,
          sessionUserId: request.user?.id ?? null,
          meta: { userAgent: request.headers['user-agent'], address: request.ip },
        }),
      );
      if (!result) return reply;
      reply.clearCookie(sso.SSO_STATE_COOKIE, { path: sso.SSO_STATE_PATH });
      if (result.token) setSessionCookie(request, reply, result.token, ctx.config.sessionDays);
      return reply.redirect(`${ctx.config.publicUrl}${result.returnTo}`);
    },
  );

  await samlSignInRoutes(instance, ctx);
}

/** `/api/v1/auth/sso/{ws}/saml…`: our SAML metadata and the identity provider's post back. */
async function samlSignInRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute' } };
  const tags = ['single sign-on'];

  app.get(
    '/auth/sso/:ws/saml/metadata',
    {
      config: limited,
      schema: {
        tags,
        description: 'Our SAML service provider metadata, to register at the identity provider',
        params: SsoWorkspaceParams,
      },
    },
    async (request, reply) =>
      reply.type('application/samlmetadata+xml').send(sso.samlMetadataOf(ctx, request.params.ws)),
  );

  // The identity provider posts a form from its own origin: the parser is this route's alone.
  await instance.register(async (acs) => {
    acs.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    acs.withTypeProvider<ZodTypeProvider>().post(
      '/auth/sso/:ws/saml/acs',
      {
        // Cross-site by design, and it never reads a session: its credential is the signed assertion.
        config: { ...limited, sessionless: true },
        schema: {
          tags,
          description: "The SAML identity provider's HTTP-POST: a signed assertion signs in and redirects",
          params: SsoWorkspaceParams,
          body: SamlAcsBody,
        },
      },
      async (request, reply) => {
        const result = await backToSignIn(ctx, request, reply, () =>
          sso.finishSamlSignIn(ctx, {
            workspaceId: request.params.ws,
            samlResponse: request.body.SAMLResponse,
            relayState: request.body.RelayState,
            meta: { userAgent: request.headers['user-agent'], address: request.ip },
          }),
        );
        if (!result) return reply;
        setSessionCookie(request, reply, result.token, ctx.config.sessionDays);
        return reply.redirect(`${ctx.config.publicUrl}${result.returnTo}`);
      },
    );
  });
}
