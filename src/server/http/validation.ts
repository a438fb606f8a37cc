import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

type Validate = ReturnType<typeof validatorCompiler>;

/** How many distinct query strings a route remembers the parse of (forgotten all at once when full). */
const MAX_KEPT_QUERIES = 256;
/** Longer query strings are parsed every time (what is kept stays small, whatever is asked). */
const MAX_KEPT_LENGTH = 120;

const isFlat = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((entry) => typeof entry !== 'object' || entry === null);

/** The text a query string's parameters are remembered by, or undefined when they are not to be. */
function rememberedAs(data: unknown) {
  let text = '';
  for (const key in data as Record<string, unknown>) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value !== 'string') return undefined;
    text += `${key}\0${value}\0`;
    if (text.length > MAX_KEPT_LENGTH) return undefined;
  }
  return text;
}

/**
 * A route's query string, parsed once per distinct set of parameters (most reads repeat a few: none,
 * `?locale=fr-CA`): each request gets a copy of the kept result. Parses that fail, hold objects or
 * come from repeated parameters or long query strings are not kept (NUL, which separates parameters
 * here, is refused before validation: input-guard.ts).
 */
function parsingQueriesOnce(validate: Validate): Validate {
  const kept = new Map<string, Record<string, unknown>>();
  return (data) => {
    const text = rememberedAs(data);
    if (text === undefined) return validate(data);
    const known = kept.get(text);
    if (known) return { value: { ...known } };
    const result = validate(data);
    if (typeof result === 'object' && 'value' in result && !('error' in result) && isFlat(result.value)) {
      if (kept.size >= MAX_KEPT_QUERIES) kept.clear();
      kept.set(text, { ...result.value });
    }
    return result;
  };
}

/** zod validation of requests' params, query strings, headers and bodies. */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'querystring' ? parsingQueriesOnce(validate) : validate;
};
