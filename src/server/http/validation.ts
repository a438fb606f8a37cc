import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

type Validate = ReturnType<typeof validatorCompiler>;

const hasNoKeys = (data: unknown) => {
  for (const key in data as object) if (Object.hasOwn(data as object, key)) return false;
  return true;
};

const isFlat = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((entry) => typeof entry !== 'object' || entry === null);

/**
 * A query string without parameters (most reads) gets a copy of what its schema made of an empty one,
 * once, instead of a parse per request; any other query string, and every other part, is parsed.
 */
function parsingEmptyQueryOnce(validate: Validate): Validate {
  let empty: Record<string, unknown> | null | undefined;
  return (data) => {
    if (!hasNoKeys(data)) return validate(data);
    if (empty === undefined) {
      const result = validate({});
      empty = typeof result === 'object' && 'value' in result && isFlat(result.value) ? result.value : null;
    }
    return empty ? { value: { ...empty } } : validate(data);
  };
}

/** zod validation of requests' params, query strings, headers and bodies. */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'querystring' ? parsingEmptyQueryOnce(validate) : validate;
};
