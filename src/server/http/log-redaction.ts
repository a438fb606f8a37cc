/**
 * Logged errors must not carry a failed query's parameters (argon2 hashes, emails, tokens). Drizzle's
 * DrizzleQueryError writes them into its message (`Failed query: …\nparams: …`) and keeps them in
 * `params`; drivers keep them in `params`/`parameters`, and PostgreSQL's `detail` quotes the failing row
 * (`Failing row contains (…)`, `Key (email)=(…) already exists`). The logger's `err` serializer runs every logged
 * error, and its causes, through here.
 */
const PARAM_KEYS = new Set(['params', 'parameters', 'args', 'detail']);
/** From `params:` up to the stack's first frame (or the end): a parameter may hold newlines. */
const PARAMS_TEXT = /params: [\s\S]*?(?=\n\s+at |$)/g;
const REDACTED = '[redacted]';

function redactText(text: string) {
  return text.replace(PARAMS_TEXT, `params: ${REDACTED}`);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (!value || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    copy[key] = PARAM_KEYS.has(key) ? REDACTED : redactValue(v, depth + 1);
  }
  return copy;
}

/** A plain, loggable copy of an error (with its causes) whose query parameters are replaced by `[redacted]`. */
function serializeError(err: unknown): unknown {
  return serializeErrorAt(err, 0);
}

function serializeErrorAt(err: unknown, depth: number): unknown {
  if (!(err instanceof Error)) return redactValue(err, depth);
  const own = redactValue({ ...err }, depth) as Record<string, unknown>;
  return {
    ...own,
    type: err.constructor?.name ?? 'Error',
    message: redactText(err.message),
    stack: err.stack ? redactText(err.stack) : undefined,
    ...(err.cause !== undefined && depth < 5 ? { cause: serializeErrorAt(err.cause, depth + 1) } : {}),
  };
}

/** The logger options with the redacting error serializer; `false` (no logger) stays as it is. */
export function withRedaction<T extends boolean | object>(logger: T): T | object {
  if (logger === false) return logger;
  const options = logger === true ? {} : (logger as { serializers?: object });
  return { ...options, serializers: { ...options.serializers, err: serializeError, error: serializeError } };
}
