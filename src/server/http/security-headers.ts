import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers for a configuration, computed once. Without CSP nonces or directive
 * functions they are the same for every response, and helmet (through @fastify/helmet) rebuilt them
 * from the options on every request (about 4% of the server's CPU under load).
 */
export function securityHeadersOf(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader() {},
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * What a JSON API's answers need of them: no MIME sniffing, and nothing to load or frame should one be
 * opened as a page. The rest of helmet's set is for HTML documents.
 */
export const JSON_API_SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
});

/**
 * Sends helmet's headers with every answer of the app (routes may still set their own on top), but for
 * URLs under `apiPrefix`: that API sends JSON_API_SECURITY_HEADERS itself (every header costs CPU time
 * on an answer of a few hundred bytes).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: Readonly<HelmetOptions>,
  apiPrefix?: string,
) {
  const headers = securityHeadersOf(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (apiPrefix === undefined || !request.url.startsWith(apiPrefix)) reply.headers(headers);
    done();
  });
}
