import { ErrorBody } from '@shared/api/errors';
import { WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import { logEvent } from '@web/lib/analytics';
import { ApiError } from '@web/lib/api-client';

export const generateTypesPath = (ws: string, schemaName: string) =>
  `/fun/items/generate-types/${encodeURIComponent(schemaName)}?${new URLSearchParams({ [WORKSPACE_QUERY_PARAM]: ws })}`;

/**
 * GET /fun/items/generate-types/{schema} (spec §7): the TypeScript definition of a schema's item data,
 * answered as text. On failure the error's message is the answer's text: the message of an API error
 * body, otherwise the body as sent.
 */
export async function generateTypes(ws: string, schemaName: string, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(generateTypesPath(ws, schemaName), {
      credentials: 'same-origin',
      headers: { Accept: 'text/plain, application/json' },
      signal,
    });
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.');
  }
  const text = await response.text();
  if (response.ok) return text;
  throw failureOf(response.status, text);
}

function failureOf(status: number, text: string): ApiError {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success)
      return new ApiError(
        status,
        parsed.data.error.code,
        parsed.data.error.message,
        parsed.data.error.details,
      );
  } catch {
    /* not JSON: the text itself is the detail */
  }
  return new ApiError(status, 'http_error', text.trim() || `Request failed (${status})`);
}

/**
 * The item form's `generateTypes` on the item screens: a failure is logged as a typegen_failed event
 * (spec §8) and rethrown, for the schema selector to show 'Types not generated. {detail}'.
 */
export const createTypeGenerator =
  (ws: string) =>
  async (schemaName: string): Promise<string> => {
    try {
      return await generateTypes(ws, schemaName);
    } catch (failure) {
      logEvent('typegen_failed', {
        schema: schemaName,
        message: failure instanceof Error ? failure.message : String(failure),
      });
      throw failure;
    }
  };
