import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OkResponse, SignedIn } from '@shared/api/auth';
import {
  RecoveryCodesResponse,
  TwoFactorCodeBody,
  TwoFactorProofBody,
  TwoFactorSetup,
  TwoFactorSignInBody,
  TwoFactorStatus,
} from '@shared/api/two-factor';
import type { AppContext } from '../context';
import { setSessionCookie } from './plugin';
import { requireUser, signInSecondStep } from './service';
import * as twoFactor from './two-factor';

export async function twoFactorRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute' } };
  const tags = ['auth'];

  app.post(
    '/auth/sign-in/two-factor',
    {
      config: limited,
      schema: {
        tags,
        description: 'The second step of a password sign-in: a current code or a recovery code',
        body: TwoFactorSignInBody,
        response: { 200: SignedIn },
      },
    },
    async (request, reply) => {
      const result = await signInSecondStep(ctx, request.body, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
      });
      setSessionCookie(request, reply, result.token, ctx.config.sessionDays);
      return result;
    },
  );

  app.get('/auth/two-factor', { schema: { tags, response: { 200: TwoFactorStatus } } }, async (request) =>
    twoFactor.status(ctx, requireUser(request.user)),
  );

  app.post(
    '/auth/two-factor/setup',
    {
      config: limited,
      schema: { tags, description: 'A new secret, in use once enabled', response: { 200: TwoFactorSetup } },
    },
    async (request) => twoFactor.startSetup(ctx, requireUser(request.user)),
  );

  app.post(
    '/auth/two-factor/enable',
    { config: limited, schema: { tags, body: TwoFactorCodeBody, response: { 200: RecoveryCodesResponse } } },
    async (request) => twoFactor.enable(ctx, requireUser(request.user), request.body.code, request.ip),
  );

  app.post(
    '/auth/two-factor/disable',
    { config: limited, schema: { tags, body: TwoFactorProofBody, response: { 200: OkResponse } } },
    async (request) => {
      await twoFactor.disable(ctx, requireUser(request.user), request.body, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/two-factor/recovery-codes',
    { config: limited, schema: { tags, body: TwoFactorProofBody, response: { 200: RecoveryCodesResponse } } },
    async (request) =>
      twoFactor.regenerateRecoveryCodes(ctx, requireUser(request.user), request.body, request.ip),
  );
}
