import { count, eq } from 'drizzle-orm';
import { auditLog, samlAssertions, ssoConnections, ssoIdentities } from '@server/db/schema';
import { SSO_MESSAGES } from '@shared/api/sso';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  IDP_CERT,
  IDP_ENTITY_ID,
  IDP_ENTRY_POINT,
  OTHER_CERT,
  readAuthnRequest,
  samlResponse,
  type AssertionOptions,
} from '../fixtures/saml-idp';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let editor: TestUser;
let outsider: TestUser;
let ws: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: TestUser, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user?.auth ?? {}, payload });

const samlConnection = (overrides: object = {}) => ({
  entryPoint: IDP_ENTRY_POINT,
  idpIssuer: IDP_ENTITY_ID,
  idpCert: IDP_CERT,
  domains: ['saml-corp.test'],
  allowPassword: true,
  roleRules: [
    { claim: 'groups', value: 'marketing', roles: ['editor'] },
    { claim: 'groups', value: 'cms-admins', roles: [], isWorkspaceManager: true },
  ],
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Sam Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  const created = await createWorkspace(t.app, manager, 'Saml Corp');
  ws = created.id;
  await patchWorkspace(t.app, manager, ws, {
    roles: {
      ...created.roles,
      editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] },
    },
  });
  const input = newUserInput({ name: 'Eve Editor' });
  await api('POST', `/workspaces/${ws}/members/invitations`, manager, {
    email: input.email,
    roles: ['editor'],
  });
  editor = await verifiedUser(t, input);
});
afterAll(() => t.close());

const auditCount = async () =>
  (await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.workspaceId, ws)))[0]!.n;

/** Our redirect to the identity provider: the AuthnRequest it carries, with our RelayState. */
async function startSaml() {
  const start = await api('GET', `/auth/sso/${ws}/start`);
  expect(start.statusCode).toBe(302);
  expect(start.headers.location).toMatch(new RegExp(`^${IDP_ENTRY_POINT}\\?SAMLRequest=`));
  return readAuthnRequest(start.headers.location!);
}

/** The identity provider's form post to our ACS, as a browser sends it. */
const postAcs = (body: { SAMLResponse: string; RelayState?: string }, workspaceId = ws) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/auth/sso/${workspaceId}/saml/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  });

/** Starts a sign-in and answers it with an assertion for `nameId`, changed by `overrides`. */
async function samlSignIn(
  nameId: string,
  attributes: Record<string, string[]>,
  overrides: Partial<AssertionOptions> = {},
) {
  const request = await startSaml();
  const SAMLResponse = samlResponse({
    nameId,
    inResponseTo: request.id,
    acsUrl: request.acsUrl,
    audience: request.issuer,
    attributes,
    ...overrides,
  });
  return { request, SAMLResponse, res: await postAcs({ SAMLResponse, RelayState: request.relayState }) };
}

const sessionOf = (res: { cookies: { name: string; value: string }[] }) => {
  const token = res.cookies.find((c) => c.name === 'marquee_session')?.value;
  return token ? { authorization: `Bearer ${token}` } : undefined;
};

async function memberOf(email: string) {
  const list = (await api('GET', `/workspaces/${ws}/members`, manager)).json();
  return list.members.find((m: { email: string }) => m.email === email);
}

describe('SAML settings', () => {
  it('answers 401 signed out, 404 to strangers and 403 to members who are not managers', async () => {
    expect((await api('PUT', `/workspaces/${ws}/sso/saml`, undefined, samlConnection())).statusCode).toBe(
      401,
    );
    expect((await api('PUT', `/workspaces/${ws}/sso/saml`, outsider, samlConnection())).statusCode).toBe(404);
    expect((await api('PUT', `/workspaces/${ws}/sso/saml`, editor, samlConnection())).statusCode).toBe(403);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const before = await auditCount();
    for (const bad of [
      samlConnection({ entryPoint: 'http://idp.example.com/sso' }),
      samlConnection({ entryPoint: 'not a url' }),
      samlConnection({ idpCert: 'not a certificate' }),
      samlConnection({ idpCert: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }),
      samlConnection({ idpIssuer: '' }),
      samlConnection({ domains: ['not a domain'] }),
      samlConnection({ roleRules: [{ claim: 'groups', value: 'x', roles: ['no-such-role'] }] }),
      {},
    ]) {
      const res = await api('PUT', `/workspaces/${ws}/sso/saml`, manager, bad);
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await auditCount()).toBe(before);
    expect(
      await t.database.db.select().from(ssoConnections).where(eq(ssoConnections.workspaceId, ws)),
    ).toEqual([]);
  });

  it('saves the connection, shows our metadata to register and audits the change', async () => {
    const saved = await api('PUT', `/workspaces/${ws}/sso/saml`, manager, samlConnection());
    expect(saved.statusCode, saved.body).toBe(200);
    const settings = saved.json();
    expect(settings.connection).toMatchObject({ kind: 'saml', issuer: IDP_ENTITY_ID, clientId: '' });
    expect(settings.connection.saml).toMatchObject({ entryPoint: IDP_ENTRY_POINT, audience: '' });
    expect(settings.saml.acsUrl).toBe(`http://marquee.test/api/v1/auth/sso/${ws}/saml/acs`);
    expect(settings.saml.metadata).toContain(`entityID="${settings.saml.entityId}"`);
    expect(settings.saml.metadata).toContain('WantAssertionsSigned="true"');
    const metadata = await api('GET', `/auth/sso/${ws}/saml/metadata`);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain(settings.saml.acsUrl);
    const [row] = await t.database.db
      .select({ action: auditLog.action, detail: auditLog.detail })
      .from(auditLog)
      .where(eq(auditLog.workspaceId, ws))
      .orderBy(auditLog.id);
    expect(row).toBeDefined();
    expect((await api('GET', `/workspaces/${ws}/sso`, manager)).json().connection.kind).toBe('saml');
  });
});

describe('signing in with SAML', () => {
  it('signs a new user in with the mapped roles, bound to the entity id and NameID', async () => {
    const { res, request } = await samlSignIn('saml-user-1', {
      email: ['nia@saml-corp.test'],
      displayName: ['Nia Saml'],
      groups: ['marketing'],
    });
    expect(request.issuer).toBe(`http://marquee.test/api/v1/auth/sso/${ws}/saml/metadata`);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(`http://marquee.test/${ws}`);
    const session = sessionOf(res)!;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: session })).json().user,
    ).toMatchObject({
      email: 'nia@saml-corp.test',
      name: 'Nia Saml',
    });
    expect(await memberOf('nia@saml-corp.test')).toMatchObject({
      roles: ['editor'],
      isWorkspaceManager: false,
    });
    const [identity] = await t.database.db
      .select()
      .from(ssoIdentities)
      .where(eq(ssoIdentities.subject, 'saml-user-1'));
    expect(identity).toMatchObject({ workspaceId: ws, issuer: IDP_ENTITY_ID });

    // The group removed at the identity provider removes the role at the next sign-in.
    const again = await samlSignIn('saml-user-1', { email: ['nia@saml-corp.test'], groups: [] });
    expect(again.res.statusCode).toBe(302);
    expect(await memberOf('nia@saml-corp.test')).toMatchObject({ roles: [] });
  });

  it('refuses a replayed assertion, keeping its id until it expires', async () => {
    const first = await samlSignIn('saml-replay', { email: ['rey@saml-corp.test'] });
    expect(first.res.statusCode).toBe(302);
    const replayed = await postAcs({
      SAMLResponse: first.SAMLResponse,
      RelayState: first.request.relayState,
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.message).toBe(SSO_MESSAGES.samlReplayed);
    // The same assertion under a fresh request is still the same assertion.
    const fresh = await startSaml();
    expect(
      (await postAcs({ SAMLResponse: first.SAMLResponse, RelayState: fresh.relayState })).statusCode,
    ).toBe(400);
    const [kept] = await t.database.db
      .select()
      .from(samlAssertions)
      .where(eq(samlAssertions.workspaceId, ws));
    expect(kept!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses expired, not yet valid, tampered, unsigned, foreign-signed, misaddressed and unrequested assertions', async () => {
    const identitiesBefore = (await t.database.db.select({ n: count() }).from(ssoIdentities))[0]!.n;
    const email = { email: ['mallory@saml-corp.test'], groups: ['cms-admins'] };
    const cases: [string, Partial<AssertionOptions>][] = [
      ['expired', { notOnOrAfter: -60_000, notBefore: -10 * 60_000 }],
      ['not yet valid', { notBefore: 5 * 60_000 }],
      ['tampered', { tamper: (xml) => xml.replace('>saml-forged<', '>saml-user-1<') }],
      ['tampered attributes', { tamper: (xml) => xml.replace('cms-admins', 'marketing') }],
      ['unsigned', { signWith: 'none' }],
      ['signed by another key', { signWith: 'other' }],
      ['another audience', { audience: 'https://elsewhere.test/metadata' }],
      ['another issuer', { issuer: 'https://evil.test/metadata' }],
      ['another request', { inResponseTo: '_not-our-request' }],
    ];
    for (const [what, overrides] of cases) {
      const { res } = await samlSignIn('saml-forged', email, overrides);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().error.message, what).toBe(SSO_MESSAGES.samlRefused);
    }
    const request = await startSaml();
    const valid = samlResponse({
      nameId: 'saml-forged',
      inResponseTo: request.id,
      acsUrl: request.acsUrl,
      audience: request.issuer,
      attributes: email,
    });
    for (const relayState of [undefined, 'forged', request.relayState.slice(0, -4)])
      expect(
        (await postAcs({ SAMLResponse: valid, ...(relayState ? { RelayState: relayState } : {}) }))
          .statusCode,
      ).toBe(400);
    expect(
      (await postAcs({ SAMLResponse: 'not base64 xml', RelayState: request.relayState })).statusCode,
    ).toBe(400);
    expect((await postAcs({ SAMLResponse: '' })).statusCode).toBe(400);
    expect((await t.database.db.select({ n: count() }).from(ssoIdentities))[0]!.n).toBe(identitiesBefore);
    expect(await memberOf('mallory@saml-corp.test')).toBeUndefined();
  });

  it('sends a browser back to the sign-in page with the refusal', async () => {
    const request = await startSaml();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auth/sso/${ws}/saml/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({
        SAMLResponse: samlResponse({
          nameId: 'x',
          inResponseTo: request.id,
          acsUrl: request.acsUrl,
          audience: request.issuer,
          signWith: 'other',
        }),
        RelayState: request.relayState,
      }).toString(),
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toContain(
      `/auth/welcome?ssoError=${encodeURIComponent(SSO_MESSAGES.samlRefused)}`,
    );
  });

  it('refuses the takeover of an account with the same email made elsewhere', async () => {
    const victim = await verifiedUser(t, { email: 'victim@saml-corp.test' });
    const { res } = await samlSignIn('saml-attacker', { email: [victim.email], groups: ['cms-admins'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(SSO_MESSAGES.emailTaken);
    expect(await memberOf(victim.email)).toBeUndefined();
  });

  it('refuses a certificate the connection does not pin, after the connection changes', async () => {
    const saved = await api(
      'PUT',
      `/workspaces/${ws}/sso/saml`,
      manager,
      samlConnection({ idpCert: OTHER_CERT }),
    );
    expect(saved.statusCode).toBe(200);
    const { res } = await samlSignIn('saml-user-1', { email: ['nia@saml-corp.test'] });
    expect(res.statusCode).toBe(400);
    expect((await api('PUT', `/workspaces/${ws}/sso/saml`, manager, samlConnection())).statusCode).toBe(200);
  });
});
