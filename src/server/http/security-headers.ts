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

/** Sends helmet's headers with every answer of the app (routes may still set their own on top). */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>) {
  const headers = securityHeadersOf(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
