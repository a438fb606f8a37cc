/**
 * The HTTP layer faked at the fetch boundary for component tests: routes keyed `METHOD /path` answer
 * `[status, json]`; every call is recorded. Install in beforeEach, `vi.unstubAllGlobals()` after.
 */
export type FakeHandler = (body: unknown, url: URL) => [number, unknown?];

export interface FakeApi {
  routes: Record<string, FakeHandler>;
  calls: { method: string; path: string; search: string; body: unknown }[];
}

export function installFakeApi(routes: Record<string, FakeHandler> = {}): FakeApi {
  const api: FakeApi = { routes, calls: [] };
  const fakeFetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    api.calls.push({ method, path: url.pathname, search: url.search, body });
    const handler = api.routes[`${method} ${url.pathname}`];
    const [status, json] = handler
      ? handler(body, url)
      : [404, { error: { code: 'not_found', message: 'Not found' } }];
    return Promise.resolve(
      new Response(json === undefined ? null : JSON.stringify(json), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  };
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  return api;
}
