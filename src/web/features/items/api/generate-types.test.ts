import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTypeGenerator, generateTypes, generateTypesPath } from './generate-types';

type Call = { url: string; init?: RequestInit };

/** fetch answers by URL fragment; every call is recorded. */
function stubFetch(answers: Record<string, () => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      calls.push({ url: String(input), init });
      const key = Object.keys(answers).find((fragment) => String(input).includes(fragment));
      return key ? answers[key]() : new Response('', { status: 204 });
    }),
  );
  return calls;
}

const text = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain' } });
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('generateTypes', () => {
  it('asks /fun/items/generate-types/{schema} with the workspace and answers the text', async () => {
    const calls = stubFetch({
      '/fun/items/generate-types/': () => text('export interface Copy {\n  name: string;\n}\n'),
    });
    await expect(generateTypes('acme', 'copy')).resolves.toBe(
      'export interface Copy {\n  name: string;\n}\n',
    );
    expect(calls[0].url).toBe('/fun/items/generate-types/copy?__marquee_workspace=acme');
    expect(generateTypesPath('a b', 'x/y')).toBe('/fun/items/generate-types/x%2Fy?__marquee_workspace=a+b');
  });

  it("fails with the API error's message, or with the body text when it is not an API error", async () => {
    stubFetch({
      '/fun/': () => json({ error: { code: 'not_found', message: 'Schema "nope" not available' } }, 404),
    });
    await expect(generateTypes('acme', 'nope')).rejects.toMatchObject({
      status: 404,
      message: 'Schema "nope" not available',
    });
    stubFetch({ '/fun/': () => text('upstream timed out', 502) });
    await expect(generateTypes('acme', 'copy')).rejects.toMatchObject({
      status: 502,
      message: 'upstream timed out',
    });
    stubFetch({ '/fun/': () => text('', 500) });
    await expect(generateTypes('acme', 'copy')).rejects.toThrow('Request failed (500)');
  });
});

describe('createTypeGenerator', () => {
  it('logs a typegen_failed event and rethrows for the schema selector to report', async () => {
    const calls = stubFetch({
      '/fun/': () => json({ error: { code: 'not_found', message: 'Unknown schema' } }, 404),
    });
    await expect(createTypeGenerator('acme')('nope')).rejects.toThrow('Unknown schema');
    const event = calls.find((call) => call.url === '/api/v1/events');
    expect(event?.init?.method).toBe('POST');
    expect(JSON.parse(String(event?.init?.body))).toMatchObject({
      eventType: 'typegen_failed',
      data: { schema: 'nope', message: 'Unknown schema' },
    });
  });

  it('logs nothing when the types are generated', async () => {
    const calls = stubFetch({ '/fun/': () => text('export interface Copy {}') });
    await expect(createTypeGenerator('acme')('copy')).resolves.toBe('export interface Copy {}');
    expect(calls.map((call) => call.url)).toEqual([
      '/fun/items/generate-types/copy?__marquee_workspace=acme',
    ]);
  });
});
