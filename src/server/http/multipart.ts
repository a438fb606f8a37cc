import { AppError, badRequest } from './errors';

/**
 * A multipart body the parser cannot read (no boundary, cut short, garbage) is the client's mistake:
 * 400 with the parser's words, never a 500. Errors that already carry a client status keep it.
 */
export function malformedMultipart(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  const message = err instanceof Error ? err.message : String(err);
  if (status === 413) return new AppError('too_large', message);
  if (status === 415) return new AppError('unsupported_type', message);
  if (status !== undefined && status >= 400 && status < 500) return badRequest(message);
  return badRequest(`The upload is not valid multipart/form-data: ${message}`);
}
