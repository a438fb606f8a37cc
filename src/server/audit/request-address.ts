import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

const store = new AsyncLocalStorage<{ address: string }>();

/**
 * Keeps the client address of the request being handled, so audit rows can name it without every
 * service passing the request along. Runs as a preHandler: after the body is parsed, around the handler.
 */
export function registerRequestAddress(app: FastifyInstance) {
  app.addHook('preHandler', (request, _reply, done) => {
    store.run({ address: request.ip }, done);
  });
}

/** The client address of the request this code runs for; null outside a request (workers, scripts). */
export function requestAddress(): string | null {
  return store.getStore()?.address ?? null;
}
