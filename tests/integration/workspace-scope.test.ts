import type { RouteOptions } from 'fastify';
import { MESSAGES } from '@shared/api/errors';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { blogPostData, call, createItem, itemUrl } from '../factories/items';

/**
 * Every route of the app, from its own route table: the private ones answer 401 without a session and
 * 404 'Workspace not found' to a signed-in member of another workspace, with path parameters naming real
 * things of the target workspace, so the 404 is the workspace scope's and not a missing thing's. A route
 * that is neither under a workspace scope nor listed below with why fails the test.
 */

/** Routes anyone may call, and why. */
const PUBLIC: Record<string, string> = {
  'GET /healthz': 'load balancer health check',
  'GET /__/config.json': 'public runtime configuration the web app reads before sign-in',
  'GET /__/firebase/init.json': 'public runtime configuration the web app reads before sign-in',
  'POST /api/v1/auth/sign-up': 'creating an account comes before any session',
  'POST /api/v1/auth/sign-in': 'signing in comes before any session',
  'POST /api/v1/auth/sign-in/two-factor': "sign-in's second step: the signed pending token is the credential",
  'POST /api/v1/auth/sign-in/passkey/options':
    'a challenge for signing in with a passkey: comes before any session',
  'POST /api/v1/auth/sign-in/passkey':
    'signing in with a passkey comes before any session: the signed answer is the credential',
  'POST /api/v1/auth/sign-in/two-factor/passkey-options':
    "sign-in's second step: the signed pending token is the credential",
  'POST /api/v1/auth/sign-out': 'ends the session if there is one, answers ok either way',
  'GET /api/v1/auth/sso/discover':
    "names an email domain's single sign-on before sign-in: only whether one is enforced and where it starts",
  'GET /api/v1/auth/sso/:ws/start': "starts a sign-in at the workspace's provider: comes before any session",
  'GET /api/v1/auth/sso/:ws/callback':
    "the provider's redirect: the state cookie and the provider's signed ID token are the credential",
  'GET /api/v1/auth/sso/:ws/saml/metadata':
    'our SAML service provider metadata, to register at the identity provider: no workspace data but its id',
  'POST /api/v1/auth/sso/:ws/saml/acs':
    "the SAML identity provider's post: the sealed relay state and the signed assertion are the credential",
  'POST /api/v1/auth/verify-email': 'the emailed token is the credential',
  'POST /api/v1/auth/request-password-reset': 'for people who cannot sign in',
  'POST /api/v1/auth/reset-password': 'the emailed token is the credential',
  'POST /api/v1/events': 'analytics events, anonymous too; a workspace is recorded only for its members',
  'GET /fun/emailImage/':
    "images of sent emails: the signed link is the credential, recipients aren't members",
  'GET /sdk/marquee.js': 'the browser script websites load; it holds no workspace data',
  'GET /sdk/preview.js': 'the live preview script websites load; it holds no workspace data',
  'GET /u/:token': "a campaign message's unsubscribe page: the signed recipient token is the credential",
  'POST /u/:token': 'one-click unsubscribe (RFC 8058): the signed recipient token is the credential',
  'POST /u/:token/resubscribe': 'undoes an unsubscribe: the signed recipient token is the credential',
  'GET /t/o/:token': "a campaign message's open pixel: the signed recipient token is the credential",
  'GET /t/c/:token': "a campaign message's link: the signed recipient token is the credential",
  'POST /hooks/email/:provider':
    "the email provider's events: signed (SENDGRID_WEBHOOK_PUBLIC_KEY) or naming a signed recipient token",
  'GET /fun/auth/:provider/callback':
    "the provider's OAuth redirect: no workspace parameter; the state cookie sealed for this session names it and its manager access is checked there",
};
/** Route prefixes that are public as a whole. */
const PUBLIC_PREFIXES: Record<string, string> = {
  '/api/docs': 'the OpenAPI document and its viewer',
  '/delivery/v1/': 'the delivery API, with its own workspace API keys (delivery.test.ts)',
  '/ingest/v1/': 'event ingestion from websites and apps, with its own write keys (ingest.test.ts)',
  '/scim/v2/':
    "SCIM provisioning by the workspace's identity provider, with its own SCIM tokens (scim.test.ts)",
};
/**
 * Routes for any signed-in user, before or without a workspace: they answer 401 without a session. They
 * validate their input first, so each is called with input that passes.
 */
const SIGNED_IN: Record<string, { why: string; url?: string; payload?: object }> = {
  'GET /api/v1/me': { why: 'the caller' },
  'POST /api/v1/auth/send-verification': {
    why: 'for the caller, verified or not',
    payload: { returnTo: '/' },
  },
  'POST /api/v1/auth/change-email': {
    why: "the caller's own address",
    payload: { currentPassword: 'x', newEmail: 'new@example.com', returnTo: '/' },
  },
  'GET /api/v1/workspaces': { why: "the caller's own workspaces" },
  'GET /api/v1/auth/sessions': { why: "the caller's own sessions" },
  'DELETE /api/v1/auth/sessions/:id': {
    why: "ends one of the caller's own sessions",
    url: '/api/v1/auth/sessions/no-such-session',
  },
  'GET /api/v1/auth/two-factor': { why: "the caller's own two-factor sign-in" },
  'POST /api/v1/auth/two-factor/setup': { why: "the caller's own two-factor sign-in" },
  'POST /api/v1/auth/two-factor/enable': {
    why: "the caller's own two-factor sign-in",
    payload: { code: '123456' },
  },
  'POST /api/v1/auth/two-factor/disable': {
    why: "the caller's own two-factor sign-in",
    payload: { password: 'x' },
  },
  'POST /api/v1/auth/two-factor/recovery-codes': {
    why: "the caller's own two-factor sign-in",
    payload: { password: 'x' },
  },
  'GET /api/v1/auth/passkeys': { why: "the caller's own passkeys" },
  'POST /api/v1/auth/passkeys/registration-options': { why: "the caller's own passkeys" },
  'POST /api/v1/auth/passkeys': {
    why: "the caller's own passkeys",
    payload: {
      name: 'Laptop',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      },
    },
  },
  'DELETE /api/v1/auth/passkeys/:id': {
    why: "removes one of the caller's own passkeys",
    url: '/api/v1/auth/passkeys/no-such-passkey',
  },
  'POST /api/v1/workspaces': {
    why: 'creating a workspace comes before its membership',
    payload: { name: 'New' },
  },
  'GET /fun/geohash/neighbours': {
    why: 'geohash arithmetic, no workspace data',
    url: '/fun/geohash/neighbours?hash=u4pruyd&direction=n',
  },
};

const WORKSPACE_PATH = '/api/v1/workspaces/:ws';

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
let ws: string;
const routes: { method: string; url: string }[] = [];
/** Real things of the target workspace, by path parameter name. */
let known: Record<string, string> = {};
/** `:id` names a different thing depending on the segment before it. */
let idAfter: Record<string, string> = {};

beforeAll(async () => {
  const seen = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && !routes.some((r) => r.method === method && r.url === route.url)) {
        routes.push({ method, url: route.url });
      }
    }
  };
  t = await createTestApp({ webhookAllowPrivate: true }, { onRoute: seen });
  manager = await verifiedUser(t, { name: 'Scope Manager' });
  outsider = await verifiedUser(t, { name: 'Scope Outsider' });
  await createWorkspace(t.app, outsider, 'Elsewhere');
  ws = (await createWorkspace(t.app, manager, 'Scoped')).id;
  await patchWorkspace(t.app, manager, ws, {
    basics: { domains: ['blogging', 'marketing', 'assets', 'admin'], stages: ['Live', 'Staging'] },
  });
  const file = await uploadImage(t, manager, ws, await makeImage());
  const post = await createItem(t, manager, ws, 'blog-post', blogPostData());
  const created = async (method: 'POST', url: string, body: object) => {
    const res = await call(t, method, `/api/v1/workspaces/${ws}${url}`, manager, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const key = await created('POST', '/api-keys', { name: 'Site', stages: ['live'] });
  const hook = await created('POST', '/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['item.saved'],
    active: false,
  });
  const sender = await created('POST', '/senders', { fromName: 'News', fromAddress: 'news@scope.test' });
  const batch = await created('POST', '/batches', { kind: 'image-upload', total: 1 });
  const release = await created('POST', '/releases', { name: 'Launch', stage: 'live' });
  const modelChange = await created('POST', '/content-model/apply', {
    baseVersion: 0,
    ops: [{ op: 'updateSchema', schema: 'blog-post', patch: { icon: 'news' } }],
  });
  await created('POST', '/members/invitations', { email: 'invited@example.com', roles: [] });
  const schedule = await call(t, 'POST', `${itemUrl(ws, 'blog-post', post.id)}/schedules`, manager, {
    stage: 'live',
    at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(schedule.statusCode, schedule.body).toBe(201);
  known = {
    ws,
    schema: 'blog-post',
    id: post.id,
    userId: manager.id,
    email: 'invited@example.com',
    storageName: file.storageName,
    stage: 'live',
    num: '1',
    batchId: batch.id,
    // No profile exists before an import; the scope answers before the profile is looked up either way.
    profileId: 'p1',
    itemId: post.id,
    scheduleId: schedule.json().id,
    deliveryId: '00000000-0000-4000-8000-000000000000',
    provider: 'facebook',
    service: post.id,
    placeId: 'place-1',
    suppressionId: 'entry-1',
    sendId: 'send-1',
    action: 'pause',
  };
  idAfter = {
    'api-keys': key.id,
    // The scope answers before the token is looked up, so any id of the right shape will do.
    'preview-tokens': key.id,
    // The scope answers before the key is looked up, so any id of the right shape will do.
    'write-keys': key.id,
    'scim-tokens': key.id,
    webhooks: hook.id,
    senders: sender.id,
    releases: release.id,
    campaigns: post.id,
    // The scope answers before the journey is looked up, so any id of the right shape will do.
    journeys: post.id,
    items: post.id,
    emails: post.id,
    'generate-types': 'blog-post',
    changes: modelChange.change.id,
  };
}, 180_000);
afterAll(() => t.close());

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const isPublic = (r: { method: string; url: string }) =>
  key(r) in PUBLIC || Object.keys(PUBLIC_PREFIXES).some((prefix) => r.url.startsWith(prefix));
const inWorkspacePath = (url: string) => url === WORKSPACE_PATH || url.startsWith(`${WORKSPACE_PATH}/`);
/** Function service routes carry the workspace in `__marquee_workspace`. */
const isFun = (url: string) => url.startsWith('/fun/');
const scoped = () => routes.filter((r) => !isPublic(r) && !(key(r) in SIGNED_IN));

/** What a function service route needs in its query besides the workspace to get past its own checks. */
const FUN_QUERY: Record<string, () => string> = {
  '/fun/imageResize/': () => `id=${known.storageName}&w=100&`,
  '/fun/sanity/': () => `id=${known.storageName}&`,
};

/** The route's URL with every parameter naming a real thing of the target workspace. */
function filled(url: string, workspace = ws): string {
  const segments = url.split('/');
  const path = segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      // `:id` names a different thing depending on what comes before it (`items/:schema/:id`: an item).
      const value = name === 'id' ? (idAfter[segments[i - 1]] ?? idAfter[segments[i - 2]]) : known[name];
      if (value === undefined) throw new Error(`No known value for ${name} in ${url}`);
      return encodeURIComponent(value);
    })
    .join('/');
  if (!isFun(url)) return path;
  const query = FUN_QUERY[url]?.() ?? '';
  return `${path}?${query}__marquee_workspace=${encodeURIComponent(workspace)}`;
}

describe('the workspace scope', () => {
  it('covers every route: each is under a workspace scope or listed with why it is not', () => {
    expect(routes.length).toBeGreaterThan(80);
    const unaccounted = scoped().filter((r) => !inWorkspacePath(r.url) && !isFun(r.url));
    expect(unaccounted.map(key)).toEqual([]);
    // Names in the lists that no longer exist would hide a route under the wrong reason.
    for (const name of [...Object.keys(PUBLIC), ...Object.keys(SIGNED_IN)]) {
      expect(routes.map(key)).toContain(name);
    }
  });

  it('names the workspace :ws in every path', () => {
    const workspacePaths = routes.filter((r) => r.url.startsWith('/api/v1/workspaces/'));
    expect(workspacePaths.filter((r) => !inWorkspacePath(r.url)).map(key)).toEqual([]);
  });

  it('answers 401 without a session on every private route', async () => {
    const wrong: string[] = [];
    for (const route of scoped()) {
      const res = await t.app.inject({ method: route.method as 'GET', url: filled(route.url) });
      if (res.statusCode !== 401) wrong.push(`${key(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    for (const [name, input] of Object.entries(SIGNED_IN)) {
      const [method, url] = name.split(' ');
      const res = await call(t, method as 'GET', input.url ?? url, undefined, input.payload);
      if (res.statusCode !== 401) wrong.push(`${name} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("answers 404 'Workspace not found' to a member of another workspace on every workspace route", async () => {
    const wrong: string[] = [];
    for (const route of scoped()) {
      const res = await call(t, route.method as 'GET', filled(route.url), outsider);
      const message = String(res.headers['content-type']).includes('json')
        ? res.json().error?.message
        : res.body;
      if (res.statusCode !== 404 || message !== MESSAGES.workspaceNotFound) {
        wrong.push(`${key(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("answers 404 'Workspace not found' on every function service route to a workspace value that names none", async () => {
    // Broke: /fun/imageResize/ with __marquee_workspace=../../etc/passwd answered 500 (no access resolved).
    const values = [
      '../../etc/passwd',
      '..',
      `${ws}/..`,
      `../${ws}`,
      '..\\..\\windows',
      `${ws}%2F..%2F..`,
      './',
      'no-such-workspace',
    ];
    const wrong: string[] = [];
    for (const route of scoped().filter((r) => isFun(r.url))) {
      for (const value of values) {
        const res = await call(t, route.method as 'GET', filled(route.url, value), manager);
        if (res.statusCode !== 404 || res.json().error?.message !== MESSAGES.workspaceNotFound) {
          wrong.push(`${key(route)} ${value} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(scoped().filter((r) => isFun(r.url)).length).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('lets members in: the same URLs never answer the scope’s 401 or 404 to the manager', async () => {
    const wrong: string[] = [];
    for (const route of scoped().filter((r) => r.method === 'GET')) {
      const res = await call(t, 'GET', filled(route.url), manager);
      const isScopeDenial =
        res.statusCode === 401 || (res.statusCode === 404 && res.body.includes(MESSAGES.workspaceNotFound));
      if (isScopeDenial) wrong.push(`${key(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
