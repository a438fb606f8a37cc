import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES } from '@shared/api/errors';

/** An error meant for the client: its status, a stable code and a message shown as is. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, 'invalid_request', message, details);
export const unauthorized = (message: string = MESSAGES.noUser) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) =>
  new AppError(409, 'conflict', message, details);

/** fastify-type-provider-zod's form of a zod issue: the issue's other fields sit in `params`. */
interface Issue {
  instancePath?: string;
  message?: string;
  params?: { issues?: Issue[] };
}

/** Record keys and unions nest the issue that explains the failure. */
function innermostMessage(
  issue: { message?: string; issues?: { message?: string; issues?: unknown[] }[] } | undefined,
): string | undefined {
  const nested = issue?.issues?.[0] as typeof issue;
  return (nested?.message && innermostMessage(nested)) || issue?.message;
}

function describeValidation(issues: Issue[], withPath = true): string {
  const first = issues[0];
  const where = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  const message =
    innermostMessage({ message: first?.message, issues: first?.params?.issues }) ?? 'Invalid request';
  return where && withPath ? `${where}: ${message}` : message;
}

/** Every failure leaves as `{ error: { code, message } }`; unexpected ones are logged and never leak internals. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).send({
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation as unknown as Issue[];
      // A path parameter that cannot name anything is answered like a thing that does not exist.
      if (err.validationContext === 'params') {
        return reply
          .code(404)
          .send({ error: { code: 'not_found', message: describeValidation(issues, false) } });
      }
      return reply
        .code(400)
        .send({ error: { code: 'invalid_request', message: describeValidation(issues) } });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return reply.code(500).send({ error: { code: 'internal', message: 'Internal error' } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.code(500).send({ error: { code: 'internal', message: 'Internal error' } });
    }
    const code = status === 429 ? 'rate_limited' : status === 413 ? 'too_large' : 'invalid_request';
    return reply.code(status).send({ error: { code, message: err.message } });
  });
}
