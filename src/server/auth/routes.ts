import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ChangeEmailBody,
  LinkResultResponse,
  MeResponse,
  OkResponse,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SendVerificationBody,
  SessionList,
  SessionParams,
  SignInBody,
  SignInResponse,
  SignUpBody,
  SignUpResponse,
  TokenBody,
} from '@shared/api/auth';
import type { AppContext } from '../context';
import { clearSessionCookie, setSessionCookie } from './plugin';
import * as auth from './service';

export async function authRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute' } };
  const tags = ['auth'];

  app.post(
    '/auth/sign-up',
    {
      config: limited,
      schema: {
        tags,
        description:
          'Answers 202 alike whether the address is new (an account is created and a verification link ' +
          'mailed) or has an account (its owner is mailed that someone tried): sign in next.',
        body: SignUpBody,
        response: { 202: SignUpResponse },
      },
    },
    async (request, reply) => {
      await auth.signUp(ctx, request.body);
      return reply.code(202).send({ ok: true as const });
    },
  );

  app.post(
    '/auth/sign-in',
    { config: limited, schema: { tags, body: SignInBody, response: { 200: SignInResponse } } },
    async (request, reply) => {
      const result = await auth.signIn(ctx, request.body, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
      });
      if ('token' in result) setSessionCookie(request, reply, result.token, ctx.config.sessionDays);
      return result;
    },
  );

  app.post('/auth/sign-out', { schema: { tags, response: { 200: OkResponse } } }, async (request, reply) => {
    if (request.sessionHash) await auth.signOut(ctx, request.sessionHash);
    clearSessionCookie(reply);
    return { ok: true as const };
  });

  app.get('/me', { schema: { tags, response: { 200: MeResponse } } }, async (request) => ({
    user: auth.toUserDto(auth.requireUser(request.user)),
  }));

  app.get(
    '/auth/sessions',
    { schema: { tags, description: "The caller's sessions", response: { 200: SessionList } } },
    async (request) => ({
      sessions: await auth.listSessions(ctx, auth.requireUser(request.user), request.sessionHash),
    }),
  );

  app.delete(
    '/auth/sessions/:id',
    { schema: { tags, params: SessionParams, response: { 200: OkResponse } } },
    async (request, reply) => {
      const user = auth.requireUser(request.user);
      await auth.endSession(ctx, user, request.params.id);
      return reply.send({ ok: true as const });
    },
  );

  app.post(
    '/auth/send-verification',
    { config: limited, schema: { tags, body: SendVerificationBody, response: { 200: OkResponse } } },
    async (request) => {
      await auth.sendVerification(ctx, auth.requireUser(request.user), request.body.returnTo);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/verify-email',
    { config: limited, schema: { tags, body: TokenBody, response: { 200: LinkResultResponse } } },
    async (request) => ({
      ok: true as const,
      ...(await auth.verifyEmail(ctx, request.body.token, request.ip)),
    }),
  );

  app.post(
    '/auth/request-password-reset',
    { config: limited, schema: { tags, body: RequestPasswordResetBody, response: { 200: OkResponse } } },
    async (request) => {
      await auth.requestPasswordReset(ctx, request.body.email, request.body.returnTo);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/reset-password',
    { config: limited, schema: { tags, body: ResetPasswordBody, response: { 200: LinkResultResponse } } },
    async (request, reply) => {
      const result = await auth.resetPassword(ctx, request.body.token, request.body.password);
      clearSessionCookie(reply);
      return { ok: true as const, ...result };
    },
  );

  app.post(
    '/auth/change-email',
    { config: limited, schema: { tags, body: ChangeEmailBody, response: { 200: OkResponse } } },
    async (request) => {
      await auth.changeEmail(ctx, auth.requireUser(request.user), request.body);
      return { ok: true as const };
    },
  );
}
