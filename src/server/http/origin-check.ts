import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors';
import { SESSION_COOKIE } from './session-cookie';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const CROSS_ORIGIN_MESSAGE = 'Cross-origin request refused';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route never reads the session (a recipient's unsubscribe link): a session cookie the browser
     * happens to hold gives a forged request nothing, so the origin is not checked.
     */
    sessionless?: boolean;
  }
}

/** The origin a browser says the request comes from: `Origin`, or failing it the `Referer`'s origin. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Against cross-site request forgery beyond SameSite=Lax: a state-changing request that a browser
 * authenticates with the session cookie must come from a page of PUBLIC_URL's origin (multipart
 * uploads and `text/plain` posts included). Bearer-token clients send no ambient credentials and are
 * not affected; neither are requests without the session cookie, nor routes marked `sessionless`.
 */
export function registerOriginCheck(app: FastifyInstance, publicUrl: string) {
  const allowed = new URL(publicUrl).origin;
  // Not async: reads, most requests, pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const isRefused =
      UNSAFE_METHODS.has(request.method) &&
      !request.routeOptions.config?.sessionless &&
      !request.headers.authorization?.startsWith('Bearer ') &&
      Boolean(request.cookies[SESSION_COOKIE]) &&
      requestOrigin(request) !== allowed;
    done(isRefused ? forbidden(CROSS_ORIGIN_MESSAGE) : undefined);
  });
}
