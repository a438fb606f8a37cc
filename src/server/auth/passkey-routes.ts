import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OkResponse, SignedIn } from '@shared/api/auth';
import {
  AddPasskeyBody,
  Passkey,
  PasskeyList,
  PasskeyOptions,
  PasskeyParams,
  PasskeySecondStepOptionsBody,
  PasskeySignInBody,
} from '@shared/api/passkeys';
import type { AppContext } from '../context';
import * as passkeys from './passkeys';
import { setSessionCookie } from './plugin';
import { requireUser, signInWithPasskey } from './service';
import { passkeyOptions } from './two-factor';

export async function passkeyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute' } };
  const tags = ['auth'];

  app.get(
    '/auth/passkeys',
    { schema: { tags, description: "The caller's passkeys", response: { 200: PasskeyList } } },
    async (request) => passkeys.listPasskeys(ctx, requireUser(request.user)),
  );

  app.post(
    '/auth/passkeys/registration-options',
    {
      config: limited,
      schema: {
        tags,
        description: 'Options for navigator.credentials.create(): a single-use challenge for five minutes',
        response: { 200: PasskeyOptions },
      },
    },
    async (request) => passkeys.registrationOptions(ctx, requireUser(request.user)),
  );

  app.post(
    '/auth/passkeys',
    {
      config: limited,
      schema: {
        tags,
        description: "Adds the passkey the browser made for the caller's registration challenge",
        body: AddPasskeyBody,
        response: { 200: Passkey },
      },
    },
    async (request) => passkeys.addPasskey(ctx, requireUser(request.user), request.body, request.ip),
  );

  app.delete(
    '/auth/passkeys/:id',
    { schema: { tags, params: PasskeyParams, response: { 200: OkResponse } } },
    async (request) => {
      await passkeys.removePasskey(ctx, requireUser(request.user), request.params.id, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/sign-in/passkey/options',
    {
      config: limited,
      schema: {
        tags,
        description:
          'Options for navigator.credentials.get() to sign in with a passkey instead of a password',
        response: { 200: PasskeyOptions },
      },
    },
    async () => passkeys.signInOptions(ctx),
  );

  app.post(
    '/auth/sign-in/passkey',
    {
      config: limited,
      schema: {
        tags,
        description: 'Signs in with a passkey answering a challenge of /auth/sign-in/passkey/options',
        body: PasskeySignInBody,
        response: { 200: SignedIn },
      },
    },
    async (request, reply) => {
      const result = await signInWithPasskey(ctx, request.body.response, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
      });
      setSessionCookie(request, reply, result.token, ctx.config.sessionDays);
      return result;
    },
  );

  app.post(
    '/auth/sign-in/two-factor/passkey-options',
    {
      config: limited,
      schema: {
        tags,
        description: "Options for a passkey as a password sign-in's second step, for its pending token",
        body: PasskeySecondStepOptionsBody,
        response: { 200: PasskeyOptions },
      },
    },
    async (request) => passkeyOptions(ctx, request.body.pendingToken),
  );
}
