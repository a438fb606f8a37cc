import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, MESSAGES, type ErrorCode, type NotConfiguredDetails } from '@shared/api/errors';

/** An error meant for the client: a stable code (its status comes from ERROR_STATUS) and a message shown as is. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError('invalid_request', message, details);
export const unauthorized = (message: string = MESSAGES.noUser) => new AppError('unauthorized', message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError('forbidden', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string, details?: unknown) => new AppError('conflict', message, details);
export const rateLimited = (message: string, retryAfter?: number) =>
  new AppError('rate_limited', message, retryAfter === undefined ? undefined : { retryAfter });
export const providerFailed = (message: string) => new AppError('provider_failed', message);

/** An integration without its settings: the module's own message, and the variable that switches it on. */
export const notConfigured = (message: string, details: NotConfiguredDetails) =>
  new AppError('not_configured', message, details);

/** The code of a client error Fastify or a plugin raised with a bare status; any other 4xx is invalid_request. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_type',
  429: 'rate_limited',
};

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
          .code(ERROR_STATUS.not_found)
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
    const code = CODE_OF_STATUS[status] ?? 'invalid_request';
    return reply.code(ERROR_STATUS[code]).send({ error: { code, message: err.message } });
  });
}
