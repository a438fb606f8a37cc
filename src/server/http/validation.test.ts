import { z } from 'zod';
import { zodValidatorCompiler } from './validation';

const Query = z.object({ limit: z.coerce.number().int().max(10).optional(), locale: z.string().optional() });
const compile = (httpPart: string) =>
  zodValidatorCompiler({ schema: Query, method: 'GET', url: '/x', httpPart }) as (data: unknown) => {
    value?: Record<string, unknown>;
    error?: unknown;
  };

describe('zodValidatorCompiler', () => {
  it('answers a repeated query string with a copy of its parse, never the same object', () => {
    const validate = compile('querystring');
    const first = validate({ limit: '5', locale: 'fr-CA' });
    expect(first.value).toEqual({ limit: 5, locale: 'fr-CA' });
    first.value!.limit = 99;
    const again = validate({ limit: '5', locale: 'fr-CA' });
    expect(again.value).toEqual({ limit: 5, locale: 'fr-CA' });
    again.value!.locale = 'changed by a handler';
    expect(validate({ limit: '5', locale: 'fr-CA' }).value).toEqual({ limit: 5, locale: 'fr-CA' });
    expect(validate({}).value).toEqual({});
  });

  it('refuses a bad query string every time, and parses other parts as they come', () => {
    const validate = compile('querystring');
    expect(validate({ limit: '50' }).error).toBeDefined();
    expect(validate({ limit: '50' }).error).toBeDefined();
    expect(validate({ limit: ['1', '2'] }).error).toBeDefined();
    expect(compile('params')({ limit: '3' }).value).toEqual({ limit: 3 });
  });
});
