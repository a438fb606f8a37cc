import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Caller } from './repository';
import { SCIM_PREFIX } from '@shared/api/scim';
import { SESSION_COOKIE } from '../http/session-cookie';
import { resolveSession, startHousekeeping } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    user: Caller | null;
    sessionHash: string | null;
  }
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies[SESSION_COOKIE] || undefined;
}

/** Resolves the caller from `Authorization: Bearer …` or the session cookie, on every request. */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  const stopHousekeeping = startHousekeeping(ctx);
  app.addHook('onClose', async () => stopHousekeeping());
  // Not async: requests without a token (and the delivery API's) pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    // The delivery API and the SCIM service read with their own workspace keys, never with sessions.
    const hasOwnKeys = request.url.startsWith('/delivery/') || request.url.startsWith(`${SCIM_PREFIX}/`);
    const token = hasOwnKeys ? undefined : tokenOf(request);
    if (!token || token.length > 200) return done();
    identify(ctx, request, token).then(() => done(), done);
  });
}

async function identify(ctx: AppContext, request: FastifyRequest, token: string) {
  const session = await resolveSession(ctx, token);
  if (!session) return;
  // The caller as seen from this request's address, which audit rows name. Carried on the caller
  // instead of an AsyncLocalStorage: its promise hooks cost about a quarter of a cached read's CPU.
  request.user = { ...session.user, address: request.ip };
  request.sessionHash = session.sessionHash;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, days: number) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: days * 24 * 3600,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
