import { loadConfig } from '@server/config';
import { sealTokens } from '@server/services/sealing';
import { AUTH_MESSAGE_SIGN, SERVICE_MESSAGES } from '@shared/api/services';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, getItem, itemsUrl, role, teamWorkspace, type Team } from '../factories/items';
import {
  FACEBOOK_ALL_PERMISSIONS,
  FAKE_CLIENT,
  FAKE_EVENTBRITE_ORGS,
  FAKE_GOOGLE_CUSTOMERS,
  FAKE_FACEBOOK_USER,
  FAKE_PAGES,
  FAKE_X_USER,
  fakeSocialEnv,
  startFakeSocial,
  type FakeSocial,
} from '../fixtures/fake-social';
import { oauthParams } from '../fixtures/fake-oauth1';

const servicesOf = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/nonexistent', MARQUEE_SECRET: 'x', ...env }).services;

let fake: FakeSocial;
let t: TestApp;
let team: Team;
let outsider: TestUser;
let otherWs: string;

beforeAll(async () => {
  fake = await startFakeSocial();
  t = await createTestApp({ services: servicesOf(fakeSocialEnv(fake.url)) });
  const manager = await verifiedUser(t);
  team = await teamWorkspace(t, manager, {
    name: 'Connected',
    domains: ['admin', 'marketing'],
    roles: { marketer: role('Marketer', { canEdit: ['audience', 'service'] }) },
    people: { marketer: ['marketer'] },
  });
  outsider = await verifiedUser(t);
  otherWs = (
    await teamWorkspace(t, outsider, { name: 'Elsewhere', domains: ['admin'], roles: {}, people: {} })
  ).ws;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const fun = (path: string, ws = team.ws) =>
  `/fun/${path}${path.includes('?') ? '&' : '?'}__marquee_workspace=${ws}`;

/** The pop-up's journey: start, consent at the fake provider, back to the callback with this browser's cookie. */
async function authorize(provider: string, user: TestUser = team.manager, ws = team.ws) {
  const start = await call(t, 'GET', fun(`auth/${provider}`, ws), user);
  expect(start.statusCode).toBe(302);
  const cookie = start.cookies.find((c) => c.name === 'marquee_oauth')!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/fun/auth' });
  const consent = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(`http://marquee.test/fun/auth/${provider}/callback`);
  return { start, cookie: cookie.value, callback: back.pathname + back.search, back };
}

const callback = (path: string, cookie: string, user: TestUser = team.manager) =>
  call(t, 'GET', path, user, undefined, { cookie: `marquee_oauth=${cookie}` });

/** The `{_sign, encTokens, profile}` message the callback page posts, and the target origin. */
function postedMessage(html: string) {
  const match = /postMessage\((.*), ("[^"]*")\);/.exec(html);
  if (!match) throw new Error(`no postMessage in ${html}`);
  return { message: JSON.parse(match[1]), origin: JSON.parse(match[2]) as string };
}

async function connect(provider: string) {
  const { cookie, callback: path } = await authorize(provider);
  const res = await callback(path, cookie);
  expect(res.statusCode).toBe(200);
  return postedMessage(res.body).message as {
    _sign: string;
    encTokens: string;
    profile: Record<string, unknown>;
  };
}

async function connectedService(provider: string) {
  const message = await connect(provider);
  const item = await createItem(t, team.manager, team.ws, 'service', {
    name: `${provider} account`,
    connection: { provider, encTokens: message.encTokens, profile: message.profile },
  });
  return { item, message };
}

describe('connecting through the OAuth pop-up', () => {
  it('sends Facebook the spec permissions with state and a PKCE challenge', async () => {
    const { start } = await authorize('facebook');
    const url = new URL(start.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${fake.url}/facebook/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: FAKE_CLIENT.id,
      response_type: 'code',
      redirect_uri: 'http://marquee.test/fun/auth/facebook/callback',
      scope: 'ads_management,ads_read,manage_pages,publish_pages,pages_show_list',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{32}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  });

  it('exchanges the code with the verifier, takes a long-lived token and posts sealed tokens to PUBLIC_URL', async () => {
    const { cookie, callback: path } = await authorize('facebook');
    const res = await callback(path, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+'/);
    const { message, origin } = postedMessage(res.body);
    expect(origin).toBe('http://marquee.test');
    expect(message._sign).toBe(AUTH_MESSAGE_SIGN);
    expect(message.profile).toMatchObject({
      ...FAKE_FACEBOOK_USER,
      appId: FAKE_CLIENT.id,
      pageAccounts: FAKE_PAGES.map(({ id, name, category }) => ({ id, name, category })),
      adAccounts: [{ id: 'act_7001', name: 'Acme Ads' }],
      permissions: ['ads_management', 'ads_read', 'manage_pages', 'publish_pages', 'pages_show_list'],
      missingPermissions: [],
    });
    const exchange = fake.seen.filter((r) => r.path === '/facebook/oauth/access_token');
    expect(exchange.at(-2)!.form).toMatchObject({
      grant_type: 'authorization_code',
      code_verifier: expect.any(String),
    });
    expect(exchange.at(-1)!.query.grant_type).toBe('fb_exchange_token');
    // No token in the clear reaches the browser, not even the page tokens.
    for (const secret of fake.liveTokens) expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain('page-token');
  });

  it('names a permission the account did not grant', async () => {
    fake.facebookGranted = ['ads_read', 'pages_show_list', 'ads_management', 'manage_pages'];
    try {
      const message = await connect('facebook');
      expect(message.profile.missingPermissions).toEqual(['publish_pages']);
    } finally {
      fake.facebookGranted = [...FACEBOOK_ALL_PERMISSIONS];
    }
  });

  it('refuses a callback whose state is not the one sealed for this session', async () => {
    const { cookie, back } = await authorize('facebook');
    back.searchParams.set('state', 'forged-state');
    const forged = await callback(back.pathname + back.search, cookie);
    expect(forged.statusCode).toBe(400);
    // The pop-up tells its opener why, without tokens.
    expect(postedMessage(forged.body).message).toEqual({
      _sign: AUTH_MESSAGE_SIGN,
      error: SERVICE_MESSAGES.badState,
    });

    const again = await authorize('facebook');
    const missingCookie = await call(t, 'GET', again.callback, team.manager);
    expect(missingCookie.statusCode).toBe(400);

    // Another signed-in session replaying this browser's cookie and code.
    const otherSession = await callback(again.callback, again.cookie, team.members.marketer);
    expect(otherSession.statusCode).toBe(400);
  });

  it('fails the exchange when the PKCE verifier does not match the challenge', async () => {
    const first = await authorize('google-ads');
    const second = await authorize('google-ads');
    // The second flow's cookie (its verifier) with the first flow's code and state: the state check stops it.
    expect((await callback(first.callback, second.cookie)).statusCode).toBe(400);
    // A code redeemed with a wrong verifier at the provider is refused there.
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: first.back.searchParams.get('code')!,
      redirect_uri: 'http://marquee.test/fun/auth/google-ads/callback',
      code_verifier: 'not-the-verifier-not-the-verifier-not-the-ver',
      client_id: FAKE_CLIENT.id,
      client_secret: FAKE_CLIENT.secret,
    });
    const direct = await fetch(`${fake.url}/google/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(direct.status).toBe(400);
    expect(await direct.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('lets only managers of the workspace start, and answers 401 without a session', async () => {
    expect((await call(t, 'GET', fun('auth/facebook'))).statusCode).toBe(401);
    const marketer = await call(t, 'GET', fun('auth/facebook'), team.members.marketer);
    expect(marketer.statusCode).toBe(403);
    expect((await call(t, 'GET', fun('auth/facebook'), outsider)).statusCode).toBe(404);
  });
});

describe('X: 3-legged OAuth 1.0a with every call signed', () => {
  it('gets a request token for the callback, sends the pop-up to authorize it and binds it to the session', async () => {
    const { start, cookie, back } = await authorize('x');
    const requested = fake.seen.findLast((r) => r.path === '/x/oauth/request_token')!;
    expect(requested.method).toBe('POST');
    expect(oauthParams(requested.authorization)).toMatchObject({
      oauth_consumer_key: FAKE_CLIENT.id,
      oauth_signature_method: 'HMAC-SHA1',
      oauth_callback: 'http://marquee.test/fun/auth/x/callback',
    });
    const url = new URL(start.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${fake.url}/x/oauth/authorize`);
    const requestToken = url.searchParams.get('oauth_token')!;
    expect(back.searchParams.get('oauth_token')).toBe(requestToken);
    // The request token's secret stays on the server, sealed in the HttpOnly cookie.
    expect(start.headers.location).not.toContain('secret');

    const res = await callback(back.pathname + back.search, cookie);
    expect(res.statusCode).toBe(200);
    const { message } = postedMessage(res.body);
    expect(message.profile).toEqual(FAKE_X_USER);
    const exchanged = fake.seen.findLast((r) => r.path === '/x/oauth/access_token')!;
    expect(oauthParams(exchanged.authorization)).toMatchObject({
      oauth_token: requestToken,
      oauth_verifier: back.searchParams.get('oauth_verifier'),
    });
    const profileCall = fake.seen.findLast((r) => r.path === '/x/1.1/account/verify_credentials.json')!;
    expect(oauthParams(profileCall.authorization)?.oauth_token).toMatch(new RegExp(`^${FAKE_X_USER.id}-`));
    for (const secret of fake.liveTokens) expect(res.body).not.toContain(secret);
  });

  it('refuses a callback with another request token, another session or no cookie', async () => {
    const { cookie, back } = await authorize('x');
    const other = await authorize('x');
    const swapped = new URL(back);
    swapped.searchParams.set('oauth_token', other.back.searchParams.get('oauth_token')!);
    expect((await callback(swapped.pathname + swapped.search, cookie)).statusCode).toBe(400);
    expect((await callback(back.pathname + back.search, cookie, team.members.marketer)).statusCode).toBe(400);
    expect((await call(t, 'GET', back.pathname + back.search, team.manager)).statusCode).toBe(400);
    const denied = await callback(
      `/fun/auth/x/callback?denied=${back.searchParams.get('oauth_token')}`,
      cookie,
    );
    expect(denied.statusCode).toBe(400);
    expect(postedMessage(denied.body).message.error).toBe('The authorization was denied');
  });

  it('fails when a signature is wrong: the token secret', async () => {
    const { item, message } = await connectedService('x');
    const access = [...fake.liveTokens].find((value) => value.startsWith(`${FAKE_X_USER.id}-`))!;
    const forged = await createItem(t, team.manager, team.ws, 'service', {
      name: 'X with a wrong token secret',
      connection: {
        provider: 'x',
        encTokens: sealTokens(t.config.secret, team.ws, 'x', {
          accessToken: access,
          tokenSecret: 'not-the-token-secret',
          profile: message.profile,
        }),
      },
    });
    expect((await call(t, 'GET', fun(`ping/${forged.id}`), team.manager)).json()).toEqual({
      status: 'failed',
      message: 'Service connection failed.',
    });
    expect((await call(t, 'GET', fun(`ping/${item.id}`), team.manager)).json().status).toBe('success');
  });

  it('has its signatures checked by the fake: a replayed request is refused', async () => {
    await connectedService('x');
    const signed = fake.seen.findLast((r) => r.path === '/x/1.1/account/verify_credentials.json')!;
    const replay = await fetch(`${fake.url}/x/1.1/account/verify_credentials.json?skip_status=true`, {
      headers: { authorization: signed.authorization! },
    });
    expect(replay.status).toBe(401);
    const tampered = await fetch(`${fake.url}/x/1.1/account/verify_credentials.json?skip_status=false`, {
      headers: { authorization: signed.authorization!.replace(/oauth_nonce="[^"]*"/, 'oauth_nonce="fresh"') },
    });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ errors: [{ code: 32, message: 'Could not authenticate you.' }] });
  });
});

describe('encTokens on save', () => {
  it('keeps sealed tokens and the profile sealed with them, whatever profile the client sends', async () => {
    const message = await connect('x');
    const item = await createItem(t, team.manager, team.ws, 'service', {
      name: 'X account',
      connection: { provider: 'x', encTokens: message.encTokens, profile: { name: 'Someone Else' } },
    });
    expect(item.data.connection).toMatchObject({ provider: 'x', encTokens: message.encTokens });
    expect((item.data.connection as { profile: unknown }).profile).toMatchObject(FAKE_X_USER);
  });

  it('keeps service details the provider listed and refuses others', async () => {
    const message = await connect('facebook');
    const connection = { provider: 'facebook', encTokens: message.encTokens };
    const item = await createItem(t, team.manager, team.ws, 'service', {
      name: 'Facebook with details',
      connection: { ...connection, serviceDetails: { accountId: 'act_7001', pageId: '1002' } },
    });
    expect(item.data.connection).toMatchObject({ serviceDetails: { accountId: 'act_7001', pageId: '1002' } });
    const res = await call(t, 'POST', itemsUrl(team.ws, 'service'), team.manager, {
      data: { name: 'Foreign page', connection: { ...connection, serviceDetails: { pageId: '999' } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'connection.serviceDetails.pageId: Page "999" is not one the provider listed for this connection',
    );
  });

  it('refuses tampered, made-up, other-provider and other-workspace tokens', async () => {
    const message = await connect('x');
    const [version, iv, body, tag] = message.encTokens.split('.');
    const flipped = body.slice(0, 5) + (body[5] === 'A' ? 'B' : 'A') + body.slice(6);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The tag's last character carries 2 bits and 4 spare ones: flipping a spare bit decodes to the same bytes.
    const spareBits = tag.slice(0, -1) + alphabet[alphabet.indexOf(tag.at(-1)!) ^ 1];
    const candidates = [
      { provider: 'x', encTokens: [version, iv, flipped, tag].join('.') },
      { provider: 'x', encTokens: [version, iv, body, spareBits].join('.') },
      { provider: 'x', encTokens: 'made-up' },
      { provider: 'facebook', encTokens: message.encTokens },
      {
        provider: 'x',
        encTokens: sealTokens(t.config.secret, otherWs, 'x', { accessToken: 'stolen', profile: {} }),
      },
      {
        provider: 'x',
        encTokens: sealTokens('another-secret', team.ws, 'x', { accessToken: 'a', profile: {} }),
      },
    ];
    for (const connection of candidates) {
      const res = await call(t, 'POST', itemsUrl(team.ws, 'service'), team.manager, {
        data: { name: 'Forged', connection },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(`connection.encTokens: ${SERVICE_MESSAGES.foreignTokens}`);
    }
  });
});

describe('ping and delete', () => {
  it('answers Service Connected with the profile', async () => {
    const { item } = await connectedService('facebook');
    const res = await call(t, 'GET', fun(`ping/${item.id}`), team.manager);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      message: 'Service Connected',
      profile: FAKE_FACEBOOK_USER,
    });
  });

  it.each([
    ['google-ads', '/google/token'],
    ['meetup', '/meetup/access'],
    ['linkedin', '/linkedin/accessToken'],
  ])(
    '%s: refreshes an expired token, saves it as the next version and then answers',
    async (provider, tokenPath) => {
      fake.expiresIn = 1;
      let item;
      try {
        ({ item } = await connectedService(provider));
      } finally {
        fake.expiresIn = 3600;
      }
      const refreshes = () =>
        fake.seen.filter((r) => r.path === tokenPath && r.form.grant_type === 'refresh_token');
      const before = refreshes().length;
      const res = await call(t, 'GET', fun(`ping/${item.id}`), team.manager);
      expect(res.json()).toMatchObject({ status: 'success', message: 'Service Connected' });
      expect(refreshes()).toHaveLength(before + 1);
      const saved = await getItem(t, team.manager, team.ws, 'service', item.id);
      expect(saved.version).toBe(2);
      const connection = saved.data.connection as { encTokens: string };
      expect(connection.encTokens).not.toBe((item.data.connection as { encTokens: string }).encTokens);
      // The refreshed token (Google keeps its refresh token and sends none) lives an hour: no second refresh.
      expect((await call(t, 'GET', fun(`ping/${item.id}`), team.manager)).json().status).toBe('success');
      expect(refreshes()).toHaveLength(before + 1);
    },
  );

  it("says 'Service connection failed.' when the provider no longer honours the token", async () => {
    const { item } = await connectedService('x');
    fake.liveTokens.clear();
    const res = await call(t, 'GET', fun(`ping/${item.id}`), team.manager);
    expect(res.json()).toEqual({ status: 'failed', message: 'Service connection failed.' });
  });

  it('warns with the missing permission', async () => {
    const { item } = await connectedService('facebook');
    fake.facebookGranted = ['ads_read'];
    try {
      const res = await call(t, 'GET', fun(`ping/${item.id}`), team.manager);
      expect(res.json()).toMatchObject({
        status: 'warning',
        message: 'Missing permissions: ads_management, manage_pages, publish_pages, pages_show_list',
      });
    } finally {
      fake.facebookGranted = [...FACEBOOK_ALL_PERMISSIONS];
    }
  });

  it.each([
    ['x', '/x/1.1/oauth/invalidate_token'],
    ['facebook', '/facebook/me/permissions'],
    ['google-ads', '/google/revoke'],
    ['linkedin', '/linkedin/revoke'],
  ])('%s: revokes at the provider and clears the connection', async (provider, revokePath) => {
    const { item } = await connectedService(provider);
    const live = fake.liveTokens.size;
    const res = await call(t, 'DELETE', fun(`delete/${item.id}`), team.manager);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: true, version: 2 });
    expect(fake.seen.at(-1)).toMatchObject({ path: revokePath });
    expect(fake.liveTokens.size).toBe(live - 1);
    const saved = await getItem(t, team.manager, team.ws, 'service', item.id);
    expect(saved.data.connection).toEqual({ provider });
    expect((await call(t, 'GET', fun(`ping/${item.id}`), team.manager)).json().error.message).toBe(
      SERVICE_MESSAGES.notConnected,
    );
  });

  it('clears a connection whose provider has no revocation (Meetup, Eventbrite)', async () => {
    for (const provider of ['meetup', 'eventbrite']) {
      const { item } = await connectedService(provider);
      const res = await call(t, 'DELETE', fun(`delete/${item.id}`), team.manager);
      expect(res.json()).toEqual({ revoked: false, version: 2 });
      expect((await getItem(t, team.manager, team.ws, 'service', item.id)).data.connection).toEqual({
        provider,
      });
    }
  });

  it('refuses non-managers (403), other workspaces (404) and anonymous callers (401)', async () => {
    const { item } = await connectedService('facebook');
    for (const [method, path] of [
      ['GET', `ping/${item.id}`],
      ['DELETE', `delete/${item.id}`],
    ] as const) {
      expect((await call(t, method, fun(path))).statusCode).toBe(401);
      expect((await call(t, method, fun(path), team.members.marketer)).statusCode).toBe(403);
      expect((await call(t, method, fun(path), outsider)).statusCode).toBe(404);
      expect((await call(t, method, fun(path, otherWs), outsider)).statusCode).toBe(404);
    }
    expect((await getItem(t, team.manager, team.ws, 'service', item.id)).version).toBe(1);
  });
});

describe('interest search', () => {
  it('searches Facebook targeting with the workspace connection', async () => {
    await connectedService('facebook');
    const res = await call(
      t,
      'GET',
      fun('interest/facebook?searchtype=adinterest&searchterm=movie'),
      team.members.marketer,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        data: [
          { id: '6003139266461', name: 'Movies' },
          { id: '6003348604581', name: 'Movie theater' },
        ],
      },
    });
    expect(fake.seen.at(-1)!.query).toMatchObject({ type: 'adinterest', q: 'movie' });
  });

  it('searches X interests with a signed Ads API call', async () => {
    await connectedService('x');
    const res = await call(t, 'GET', fun('interest/x?searchterm=movies%20and'), team.members.marketer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { name: 'Movies and television/Comedy', targeting_type: 'INTEREST', targeting_value: '8' },
      {
        name: 'Movies and television/Movie news and general info',
        targeting_type: 'INTEREST',
        targeting_value: '9',
      },
    ]);
    const search = fake.seen.at(-1)!;
    expect(search.path).toBe('/x-ads/12/targeting_criteria/interests');
    expect(search.query.q).toBe('movies and');
    expect(search.authorization).toMatch(/^OAuth .*oauth_signature_method="HMAC-SHA1"/);
  });

  it('names a bad search type or a missing term, and refuses outsiders', async () => {
    const bad = await call(t, 'GET', fun('interest/facebook?searchtype=people&searchterm=x'), team.manager);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('searchtype must be one of adinterest');
    const missing = await call(t, 'GET', fun('interest/x'), team.manager);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('searchterm is required');
    expect((await call(t, 'GET', fun('interest/x?searchterm=a'))).statusCode).toBe(401);
    expect((await call(t, 'GET', fun('interest/x?searchterm=a'), outsider)).statusCode).toBe(404);
  });

  it('answers 502 with the provider message when the provider refuses', async () => {
    await connectedService('x');
    fake.liveTokens.clear();
    const res = await call(t, 'GET', fun('interest/x?searchterm=movies'), team.manager);
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe('Invalid or expired token.');
  });
});

describe('token exchange', () => {
  it('answers the long-lived token sealed for the workspace', async () => {
    const message = await connect('facebook');
    expect(message.encTokens).toBeTruthy();
    const short = [...fake.liveTokens].find((value) => value.startsWith('fb-short'))!;
    const res = await call(t, 'GET', fun(`token/token-exchange?token=${short}`), team.manager);
    expect(res.statusCode).toBe(200);
    const { access_token } = res.json();
    for (const secret of fake.liveTokens) expect(access_token).not.toContain(secret);
    const saved = await createItem(t, team.manager, team.ws, 'service', {
      name: 'Exchanged',
      connection: { provider: 'facebook', encTokens: access_token },
    });
    expect((saved.data.connection as { profile: unknown }).profile).toEqual(FAKE_FACEBOOK_USER);
  });

  it('says the getLongLivedToken call failed', async () => {
    const res = await call(t, 'GET', fun('token/token-exchange?token=nonsense'), team.manager);
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe('The getLongLivedToken call failed: Invalid OAuth access token.');
    expect(
      (await call(t, 'GET', fun('token/token-exchange?token=a'), team.members.marketer)).statusCode,
    ).toBe(403);
  });
});

describe('Google Ads, Meetup, Eventbrite and LinkedIn', () => {
  const cases = [
    {
      provider: 'google-ads',
      authorize: '/google/v2/auth',
      pkce: true,
      profile: {
        id: FAKE_GOOGLE_CUSTOMERS[0],
        name: `Google Ads ${FAKE_GOOGLE_CUSTOMERS.join(', ')}`,
        customers: FAKE_GOOGLE_CUSTOMERS,
      },
    },
    {
      provider: 'meetup',
      authorize: '/meetup/authorize',
      pkce: false,
      profile: {
        id: '300',
        name: 'Maya Meetup',
        groups: [{ id: '31', name: 'Node Night', urlname: 'node-night' }],
      },
    },
    {
      provider: 'eventbrite',
      authorize: '/eventbrite/authorize',
      pkce: false,
      profile: { id: '400', name: 'Evan Eventbrite', organizations: FAKE_EVENTBRITE_ORGS },
    },
    {
      provider: 'linkedin',
      authorize: '/linkedin/authorization',
      pkce: false,
      profile: { id: 'li-500', name: 'Lin Kedin', pages: [{ id: '5001', urn: 'urn:li:organization:5001' }] },
    },
  ];

  it.each(cases)('$provider connects, lists what its details are picked from, and pings', async (c) => {
    const { start } = await authorize(c.provider);
    const url = new URL(start.headers.location as string);
    expect(url.pathname).toBe(c.authorize);
    expect(url.searchParams.has('code_challenge')).toBe(c.pkce);
    if (c.provider === 'google-ads') expect(url.searchParams.get('access_type')).toBe('offline');
    const { item, message } = await connectedService(c.provider);
    expect(message.profile).toMatchObject(c.profile);
    const ping = await call(t, 'GET', fun(`ping/${item.id}`), team.manager);
    expect(ping.json()).toMatchObject({ status: 'success', message: 'Service Connected' });
  });
});

describe('a misconfigured client', () => {
  it("says so when X's client secret is wrong or Google Ads has no developer token", async () => {
    const misconfigured = await createTestApp({
      services: servicesOf({
        ...fakeSocialEnv(fake.url),
        X_CLIENT_SECRET: 'not-the-secret',
        GOOGLE_ADS_DEVELOPER_TOKEN: '',
      }),
    });
    try {
      const manager = await verifiedUser(misconfigured);
      const ws = (
        await teamWorkspace(misconfigured, manager, {
          name: 'Wrong',
          domains: ['admin'],
          roles: {},
          people: {},
        })
      ).ws;
      // X refuses the request token call signed with the wrong client secret.
      const x = await call(misconfigured, 'GET', `/fun/auth/x?__marquee_workspace=${ws}`, manager);
      expect(x.statusCode).toBe(502);
      expect(x.json().error.message).toBe('Could not authenticate you.');
      // The Ads API refuses the customer listing without the developer-token header.
      const start = await call(
        misconfigured,
        'GET',
        `/fun/auth/google-ads?__marquee_workspace=${ws}`,
        manager,
      );
      const consent = await fetch(start.headers.location as string, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location')!);
      const cookie = start.cookies.find((c) => c.name === 'marquee_oauth')!.value;
      const res = await call(misconfigured, 'GET', back.pathname + back.search, manager, undefined, {
        cookie: `marquee_oauth=${cookie}`,
      });
      expect(res.statusCode).toBe(502);
      expect(postedMessage(res.body).message.error).toBe('The developer token is not valid.');
    } finally {
      await misconfigured.close();
    }
  });
});

describe('an unconfigured provider', () => {
  it("answers 503 'Service not configured' naming the client id setting on auth, interest, ping and token calls", async () => {
    const bare = await createTestApp();
    try {
      const manager = await verifiedUser(bare);
      const ws = (
        await teamWorkspace(bare, manager, { name: 'Bare', domains: ['admin'], roles: {}, people: {} })
      ).ws;
      const sealed = sealTokens(bare.config.secret, ws, 'linkedin', {
        accessToken: 'a',
        profile: { name: 'L' },
      });
      const item = await createItem(bare, manager, ws, 'service', {
        name: 'LinkedIn',
        connection: { provider: 'linkedin', encTokens: sealed },
      });
      const at = (path: string) => `/fun/${path}${path.includes('?') ? '&' : '?'}__marquee_workspace=${ws}`;
      for (const [path, setting] of [
        ['auth/google-ads', 'GOOGLE_ADS_CLIENT_ID'],
        ['auth/meetup', 'MEETUP_CLIENT_ID'],
        ['interest/facebook?searchtype=adinterest&searchterm=a', 'FACEBOOK_CLIENT_ID'],
        ['interest/x?searchterm=a', 'X_CLIENT_ID'],
        [`ping/${item.id}`, 'LINKEDIN_CLIENT_ID'],
        ['token/token-exchange?token=a', 'FACEBOOK_CLIENT_ID'],
      ]) {
        const res = await call(bare, 'GET', at(path), manager);
        expect(res.statusCode, path).toBe(503);
        expect(res.json().error, path).toEqual({
          code: 'not_configured',
          message: 'Service not configured',
          details: { setting },
        });
      }
    } finally {
      await bare.close();
    }
  });
});
