import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { blogPostData, createItem } from '../factories/items';
import { sendableCampaign } from '../factories/campaigns';
import { seedSend } from '../factories/campaign-sends';

/**
 * Arbitrary JSON and strings — NUL, lone surrogates, deep nesting, `__proto__` and
 * `constructor` keys, huge strings — sent to every write route as a manager of a seeded workspace never
 * get a 5xx. The routes come from the app itself (an onRoute hook), so routes added later are fuzzed too.
 * Campaign reads and the links in campaign messages are fuzzed with them: their paths carry ids and tokens.
 */

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FUZZED_READS = /\/campaigns\/|^\/u\/|^\/t\//;
/** Signing out would end the session the rest of the run signs in with. */
const SKIPPED = new Set(['POST /api/v1/auth/sign-out']);

let t: TestApp;
let manager: TestUser;
const routes: { method: string; url: string }[] = [];
/** Good values for path parameters by name, so requests also get past the 404s to the body. */
let known: Record<string, string[]> = {};

beforeAll(async () => {
  const seen = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      if (
        (WRITE_METHODS.has(method) || (method === 'GET' && FUZZED_READS.test(route.url))) &&
        !SKIPPED.has(key) &&
        !routes.some((r) => `${r.method} ${r.url}` === key)
      ) {
        routes.push({ method, url: route.url });
      }
    }
  };
  t = await createTestApp({}, { onRoute: seen });
  manager = await verifiedUser(t, { name: 'Fuzz Manager' });
  const ws = (await createWorkspace(t.app, manager, 'Fuzz')).id;
  await patchWorkspace(t.app, manager, ws, {
    basics: {
      domains: ['blogging', 'marketing', 'assets', 'admin'],
      stages: ['Live', 'Staging'],
      locales: { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } },
    },
  });
  const file = await uploadImage(t, manager, ws, await makeImage());
  const post = await createItem(t, manager, ws, 'blog-post', blogPostData({ coverImage: file }));
  const reader = { id: 'reader-1', email: 'reader@example.com' };
  const { campaignId } = await sendableCampaign(t, manager, ws, [reader]);
  const send = await seedSend(t, ws, {
    campaignId,
    recipients: [{ profileId: reader.id, email: reader.email }],
    links: ['https://shop.example.com/'],
  });
  known = {
    ws: [ws],
    id: [post.id, campaignId],
    sendId: [send.id],
    action: ['pause', 'resume', 'cancel'],
    token: [send.token('u', 1), send.token('o', 1), send.token('c', 1, 1)],
    provider: ['sendgrid', 'smtp'],
    schema: ['blog-post', 'service', 'audience'],
    userId: [manager.id],
    email: [manager.email],
    storageName: [file.storageName],
    stage: ['live', 'staging'],
    num: ['1'],
  };
});
afterAll(() => t.close());

/** Strings meant to break things: NUL, lone surrogates, built-in names, huge and odd text. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    '-10000-01-01T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '<script>alert(1)</script>',
    '%00',
  ),
  fc.nat({ max: 400_000 }).map((n) => 'x'.repeat(n)),
);

/** JSON text of arbitrary values; `__proto__` keys and deep nesting are written as text, as a client would. */
const jsonLeaf = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        nastyString,
        fc.constantFrom('data', 'name', 'roles', 'basics', 'locales', '_locales', 'fr-FR'),
      ),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;
const nested = (open: string, close: string, depth: number) => open.repeat(depth) + '1' + close.repeat(depth);
const bodyText = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  jsonValue.map((v) => JSON.stringify({ data: v })),
  fc
    .dictionary(
      fc.constantFrom(
        'name',
        'slug',
        'body',
        'coverImage',
        'tags',
        'key',
        'connection',
        'criteria',
        'excerpt',
        '_locales',
      ),
      jsonValue,
    )
    .map((data) => JSON.stringify({ data })),
  jsonValue.map((v) => `{"__proto__":${JSON.stringify(v)}}`),
  jsonValue.map((v) => `{"data":{"constructor":{"prototype":${JSON.stringify(v)}}}}`),
  fc.integer({ min: 30, max: 100_000 }).map((depth) => `{"data":{"excerpt":${nested('[', ']', depth)}}}`),
  fc.integer({ min: 30, max: 5_000 }).map((depth) => nested('{"a":', '}', depth)),
  fc.constantFrom('', '{', 'null', '[]', '{}', '"\\u0000"', '{"roles":{"constructor":{}}}'),
);

/** A URL part: encodeURIComponent, with lone surrogates written as the bytes a careless client sends. */
const encodePart = (text: string) =>
  text.replace(/[^A-Za-z0-9_.~-]/g, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80';
    }
  });

const request = fc.record({
  route: fc.nat(),
  params: fc.dictionary(
    fc.constantFrom(
      ...['ws', 'id', 'schema', 'userId', 'email', 'storageName', 'stage', 'num'],
      ...['sendId', 'action', 'token', 'provider'],
    ),
    fc.oneof(fc.nat(), nastyString),
  ),
  query: fc.array(
    fc.tuple(
      fc.constantFrom('__marquee_workspace', 'q', 'cursor', 'view', 'profileId', '__proto__', 'x'),
      fc.oneof(fc.constant('good'), nastyString),
    ),
    { maxLength: 3 },
  ),
  body: bodyText,
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'text/plain',
    'multipart/form-data; boundary=x',
  ),
});

/**
 * A 5xx other than 503 not_configured: that one answers for the server's configuration (an integration
 * without its setting, here the visualisation), whatever the input, and is no fault of the server's.
 */
function isServerFault(res: { statusCode: number; body: string }) {
  if (res.statusCode < 500) return false;
  return !(res.statusCode === 503 && JSON.parse(res.body)?.error?.code === 'not_configured');
}

it('no write route nor campaign read answers 5xx to arbitrary input', async () => {
  expect(routes.length).toBeGreaterThan(20);
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(request, async (input) => {
      const route = routes[input.route % routes.length];
      const url = route.url.replace(/:(\w+)/g, (_, name: string) => {
        const choice = input.params[name] ?? 0;
        const good = known[name] ?? ['x'];
        return encodePart(typeof choice === 'number' ? good[choice % good.length] : choice);
      });
      const query = input.query
        .map(([key, value]) => `${key}=${encodePart(value === 'good' ? known.ws[0] : value)}`)
        .join('&');
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: query ? `${url}?${query}` : url,
        headers: { ...manager.auth, 'content-type': input.contentType },
        payload: route.method === 'DELETE' && input.body.length % 2 ? undefined : input.body,
      });
      if (isServerFault(res)) failures.push(`${route.method} ${url} → ${res.statusCode} ${res.body}`);
      expect(isServerFault(res)).toBe(false);
    }),
    { numRuns: 600, seed: Number(process.env.FUZZ_SEED) || undefined },
  );
  expect(failures).toEqual([]);
});

it('every write route survives the classic attacks', async () => {
  const bodies = [
    '{}',
    '{"data":{"name":"a\\u0000b"}}',
    '{"data":{"name":"\\ud800"}}',
    `{"data":${nested('[', ']', 100_000)}}`,
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    '{"roles":["constructor"],"name":"constructor","stages":["constructor"]}',
    '{"basics":{"locales":{"tags":["en-US","constructor"],"default":"prototype","fallback":{"constructor":"en-US"},"fields":{"constructor":{"toString":{"requiredIn":["prototype"]}}}}}}',
    `{"basics":{"locales":{"tags":${JSON.stringify(Array.from({ length: 10_000 }, (_, i) => `en-${i}`))},"default":"en-0","fallback":{}}}}`,
    '{"roles":{"fr":{"name":"fr","canEdit":[],"canPublish":[],"mustApprove":[],"locales":["constructor","de-DE","fr-FR"]}}}',
    '{"data":{"_locales":{"constructor":{"name":"x"},"prototype":{},"toString":null}}}',
    '{"data":{"_locales":{"fr-FR":{"constructor":"x","toString":{}}}}}',
  ];
  for (const route of routes) {
    const url = route.url.replace(/:(\w+)/g, (_, name: string) => (known[name] ?? ['x'])[0]);
    for (const body of bodies) {
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: `${url}?__marquee_workspace=${known.ws[0]}`,
        headers: { ...manager.auth, 'content-type': 'application/json' },
        payload: body,
      });
      expect({
        route: `${route.method} ${url}`,
        body: body.slice(0, 60),
        status: !isServerFault(res),
      }).toEqual({
        route: `${route.method} ${url}`,
        body: body.slice(0, 60),
        status: true,
      });
    }
  }
});
