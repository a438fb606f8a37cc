import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { auditLog, scimTokens } from '@server/db/schema';
import { hashToken } from '@server/lib/ids';
import { SCIM_SCHEMAS } from '@shared/api/scim';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider';
import { openEventStream } from '../helpers/event-stream';
import { readOutbox } from '../helpers/outbox';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { role } from '../factories/items';

/**
 * SCIM 2.0 provisioning (RFC 7643/7644) through the real HTTP stack: an identity provider with a
 * workspace SCIM token creates, changes, deactivates and deletes members, and maps groups to roles.
 */

let t: TestApp;
let base: string;
let op: TestOidcProvider;
let manager: TestUser;
let editor: TestUser;
let outsider: TestUser;
let ws: string;
let otherWs: string;
let token: string;
let tokenId: string;
let otherToken: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: TestUser, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user?.auth ?? {}, payload });

/** A SCIM request as an identity provider sends it: application/scim+json with the bearer token. */
const scim = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: { token?: string; workspace?: string } = {},
) =>
  t.app.inject({
    method,
    url: `/scim/v2/${options.workspace ?? ws}${path}`,
    headers: {
      authorization: `Bearer ${options.token ?? token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

const userBody = (userName: string, extra: object = {}) => ({
  schemas: [SCIM_SCHEMAS.user],
  userName,
  name: { givenName: userName.split('@')[0], familyName: 'Tester' },
  emails: [{ value: userName, type: 'work', primary: true }],
  active: true,
  ...extra,
});

const patchOp = (...Operations: object[]) => ({ schemas: [SCIM_SCHEMAS.patchOp], Operations });

const auditCount = async () =>
  (await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.workspaceId, ws)))[0].n;

async function memberOf(email: string) {
  const list = (await api('GET', `/workspaces/${ws}/members`, manager)).json();
  return list.members.find((m: { email: string }) => m.email === email);
}
async function invitationOf(email: string) {
  const list = (await api('GET', `/workspaces/${ws}/members`, manager)).json();
  return list.invitations.find((i: { email: string }) => i.email === email);
}

function expectScimError(res: LightMyRequestResponse, status: number, scimType?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/scim+json');
  const body = res.json();
  expect(body.schemas).toEqual([SCIM_SCHEMAS.error]);
  expect(body.status).toBe(String(status));
  if (scimType) expect(body.scimType).toBe(scimType);
  expect(typeof body.detail).toBe('string');
}

/** Makes a member with a password account, as a person invited by a manager. */
async function invitedMember(name: string, roles: string[] = []) {
  const input = newUserInput({ name });
  await api('POST', `/workspaces/${ws}/members/invitations`, manager, { email: input.email, roles });
  return verifiedUser(t, input);
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  const created = await createWorkspace(t.app, manager, 'Provisioned');
  ws = created.id;
  await patchWorkspace(t.app, manager, ws, {
    roles: {
      ...created.roles,
      editor: role('Editor', { canEdit: ['blog-post'] }),
      publisher: role('Publisher', { canEdit: ['blog-post'], canPublish: ['blog-post'] }),
    },
  });
  editor = await invitedMember('Eve Editor', ['editor']);
  otherWs = (await createWorkspace(t.app, outsider, 'Elsewhere')).id;
  const other = await api('POST', `/workspaces/${otherWs}/scim-tokens`, outsider, { name: 'Other IdP' });
  otherToken = other.json().token;
  op = await startOidcProvider([]);
}, 60_000);
afterAll(async () => {
  await op?.close();
  await t.close();
});

describe('SCIM tokens', () => {
  it('answers 401 signed out, 404 to strangers and 403 to members who are not managers', async () => {
    expect((await api('GET', `/workspaces/${ws}/scim-tokens`)).statusCode).toBe(401);
    expect((await api('GET', `/workspaces/${ws}/scim-tokens`, outsider)).statusCode).toBe(404);
    for (const [method, url, body] of [
      ['GET', '/scim-tokens', undefined],
      ['POST', '/scim-tokens', { name: 'Entra ID' }],
      ['DELETE', '/scim-tokens/abc', undefined],
    ] as const) {
      expect((await api(method, `/workspaces/${ws}${url}`, editor, body)).statusCode).toBe(403);
    }
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const before = await auditCount();
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'Okta', extra: 1 },
      { name: 5 },
    ]) {
      const res = await api('POST', `/workspaces/${ws}/scim-tokens`, manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await api('DELETE', `/workspaces/${ws}/scim-tokens/nosuchtoken`, manager)).statusCode).toBe(404);
    expect((await api('DELETE', `/workspaces/${ws}/scim-tokens/bad%20id!`, manager)).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it('makes a token shown once and kept hashed, lists several with the base URL, and revokes one', async () => {
    const made = await api('POST', `/workspaces/${ws}/scim-tokens`, manager, { name: 'Entra ID' });
    expect(made.statusCode, made.body).toBe(201);
    ({ id: tokenId, token } = made.json());
    expect(token).toMatch(/^mqscim_/);
    const spare = (await api('POST', `/workspaces/${ws}/scim-tokens`, manager, { name: 'Spare' })).json();
    const [stored] = await t.database.db.select().from(scimTokens).where(eq(scimTokens.id, tokenId));
    expect(stored.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const listed = (await api('GET', `/workspaces/${ws}/scim-tokens`, manager)).json();
    expect(listed.baseUrl).toMatch(new RegExp(`/scim/v2/${ws}$`));
    expect(listed.tokens.map((k: { name: string }) => k.name)).toEqual(['Entra ID', 'Spare']);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect((await scim('GET', '/Users', undefined, { token: spare.token })).statusCode).toBe(200);
    await t.app.background.idle();
    const used = (await api('GET', `/workspaces/${ws}/scim-tokens`, manager)).json();
    expect(used.tokens.find((k: { id: string }) => k.id === spare.id).lastUsedAt).not.toBeNull();
    const revoked = await api('DELETE', `/workspaces/${ws}/scim-tokens/${spare.id}`, manager);
    expect(revoked.statusCode).toBe(200);
    expectScimError(await scim('GET', '/Users', undefined, { token: spare.token }), 401);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.workspaceId, ws));
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['scim-token.created', 'scim-token.revoked']),
    );
  });
});

describe('the SCIM service', () => {
  it('refuses a missing token, a token of another workspace and a malformed one with 401 in the SCIM shape', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: `/scim/v2/${ws}/Users` });
    expectScimError(anonymous, 401);
    expect(anonymous.headers['www-authenticate']).toContain('Bearer');
    expectScimError(await scim('GET', '/Users', undefined, { token: otherToken }), 401);
    expectScimError(await scim('POST', '/Users', userBody('x@corp.test'), { token: otherToken }), 401);
    expectScimError(await scim('GET', '/Users', undefined, { token: 'mqscim_nope' }), 401);
    expectScimError(await scim('GET', '/Users', undefined, { workspace: otherWs }), 401);
    // A session is no SCIM credential.
    expectScimError(await scim('GET', '/Users', undefined, { token: manager.token }), 401);
  });

  it('is in the OpenAPI document with its own bearer scheme', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/scim/v2/{ws}/Users'].post.security).toEqual([{ scimToken: [] }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/scim/v2/{ws}/Groups/{id}', '/api/v1/workspaces/{ws}/scim-tokens']),
    );
  });

  it('describes itself: ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(config.headers['content-type']).toContain('application/scim+json');
    expect(config.json()).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
    const types = (await scim('GET', '/ResourceTypes')).json();
    expect(types.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect((await scim('GET', '/ResourceTypes/User')).json().endpoint).toBe('/Users');
    const schemas = (await scim('GET', '/Schemas')).json();
    expect(schemas.Resources.map((s: { id: string }) => s.id)).toContain(SCIM_SCHEMAS.user);
    expect((await scim('GET', `/Schemas/${SCIM_SCHEMAS.group}`)).json().name).toBe('Group');
    expectScimError(await scim('GET', '/Schemas/nope'), 404);
    expectScimError(await scim('GET', '/Nowhere'), 404);
  });

  it('answers bad input on every route with a 4xx in the SCIM shape and writes nothing', async () => {
    const before = await auditCount();
    const cases: [LightMyRequestResponse, number, string?][] = [
      [await scim('POST', '/Users', {}), 400, 'invalidValue'],
      [await scim('POST', '/Users', { userName: 5 }), 400, 'invalidValue'],
      [
        await scim('POST', '/Users', userBody('bad@corp.test', { emails: [{ value: 'not an address' }] })),
        400,
      ],
      [await scim('POST', '/Users', userBody('bad@corp.test', { emails: 'x' })), 400],
      [await scim('POST', '/Users', userBody('bad@corp.test', { active: 'maybe' })), 400],
      [await scim('POST', '/Users', userBody('bad@corp.test', { name: 'flat' })), 400],
      [await scim('POST', '/Users', userBody('bad@corp.test', { displayName: 'x'.repeat(20_000) })), 400],
      [await scim('POST', '/Users', '{"userName": '), 400],
      [await scim('POST', '/Users', []), 400, 'invalidSyntax'],
      [await scim('GET', '/Users?filter=userName%20eq'), 400, 'invalidFilter'],
      [await scim('GET', '/Users?filter=password%20eq%20%22x%22'), 400, 'invalidFilter'],
      [await scim('GET', '/Users?filter=active%20eq%20%22often%22'), 400, 'invalidFilter'],
      [await scim('GET', '/Users/nosuchuser'), 404],
      [await scim('PUT', '/Users/nosuchuser', userBody('ghost@corp.test')), 404],
      [
        await scim('PATCH', '/Users/nosuchuser', patchOp({ op: 'replace', path: 'active', value: false })),
        404,
      ],
      [await scim('DELETE', '/Users/nosuchuser'), 404],
      [await scim('POST', '/Groups', {}), 400, 'invalidValue'],
      [await scim('POST', '/Groups', { displayName: 'G', members: [{ value: 'nosuchuser' }] }), 400],
      [await scim('POST', '/Groups', { displayName: 'G', members: 'all' }), 400],
      [await scim('GET', '/Groups?filter=nonsense'), 400, 'invalidFilter'],
      [await scim('GET', '/Groups/nosuchgroup'), 404],
      [await scim('PUT', '/Groups/nosuchgroup', { displayName: 'G' }), 404],
      [await scim('PATCH', '/Groups/nosuchgroup', patchOp({ op: 'add', path: 'members', value: [] })), 404],
      [await scim('DELETE', '/Groups/nosuchgroup'), 404],
    ];
    for (const [res, status, scimType] of cases) expectScimError(res, status, scimType);
    const created = await scim('POST', '/Users', userBody('patchme@corp.test'));
    const id = created.json().id;
    const groupId = (await scim('POST', '/Groups', { displayName: 'Patch target' })).json().id;
    const afterSetup = await auditCount();
    for (const [body, scimType] of [
      [{}, 'invalidSyntax'],
      [patchOp(), 'invalidSyntax'],
      [patchOp({ op: 'explode', path: 'active', value: true }), 'invalidSyntax'],
      [patchOp({ op: 'remove' }), 'noTarget'],
      [patchOp({ op: 'replace', path: 'emails[type eq].value', value: 'x' }), 'invalidFilter'],
      [patchOp({ op: 'replace', path: 'emails[type eq', value: 'x' }), 'invalidPath'],
      [patchOp({ op: 'replace', path: 'urn:nope:Thing:attr', value: 'x' }), 'invalidPath'],
      [patchOp({ op: 'replace', path: 'active', value: 'perhaps' }), 'invalidValue'],
      [patchOp({ op: 'replace', path: 'userName', value: '' }), 'invalidValue'],
      [patchOp({ op: 'replace', value: 'not an object' }), 'invalidValue'],
    ] as const) {
      expectScimError(await scim('PATCH', `/Users/${id}`, body), 400, scimType);
    }
    expectScimError(await scim('PUT', `/Users/${id}`, { active: true }), 400, 'invalidValue');
    expectScimError(
      await scim(
        'PATCH',
        `/Groups/${groupId}`,
        patchOp({ op: 'add', path: 'members', value: [{ value: 'ghost' }] }),
      ),
      400,
    );
    expectScimError(await scim('PUT', `/Groups/${groupId}`, { displayName: '' }), 400, 'invalidValue');
    expect(await auditCount()).toBe(afterSetup);
    expect(afterSetup).toBe(before + 2);
  });

  it('creates a user as an invitation with the answer of RFC 7644, and refuses a second of the same userName with 409 uniqueness', async () => {
    const res = await scim('POST', '/Users', userBody('Nora@Corp.test', { externalId: 'ext-nora' }));
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      schemas: [SCIM_SCHEMAS.user],
      userName: 'Nora@Corp.test',
      externalId: 'ext-nora',
      active: true,
      groups: [],
      meta: { resourceType: 'User', location: expect.stringContaining(`/scim/v2/${ws}/Users/${user.id}`) },
    });
    expect(res.headers.location).toBe(user.meta.location);
    expect(await invitationOf('nora@corp.test')).toMatchObject({ roles: [], invitedBy: 'Entra ID' });
    await t.app.background.idle();
    expect(readOutbox(t.dataDir).some((m) => m.to.includes('nora@corp.test'))).toBe(true);
    expectScimError(await scim('POST', '/Users', userBody('nora@corp.TEST')), 409, 'uniqueness');
    expect((await scim('GET', `/Users/${user.id}`)).json().userName).toBe('Nora@Corp.test');
    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'scim.user-created'))
      .orderBy(auditLog.id);
    expect(row).toMatchObject({ userName: 'Entra ID', userId: `scim:${tokenId}` });
  });

  it('filters users by userName, emails.value, externalId and active, with and/or, and pages them', async () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const res = await scim(
        'POST',
        '/Users',
        userBody(`page${n}@corp.test`, { externalId: `page-${n}`, active: n !== 3 }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const ids = async (query: string) => {
      const res = await scim('GET', `/Users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.schemas).toEqual([SCIM_SCHEMAS.listResponse]);
      return { names: body.Resources.map((r: { userName: string }) => r.userName), body };
    };
    const f = (filter: string) => `filter=${encodeURIComponent(filter)}`;
    expect((await ids(f('userName eq "PAGE2@corp.test"'))).names).toEqual(['page2@corp.test']);
    expect((await ids(f('emails.value eq "page4@CORP.test"'))).names).toEqual(['page4@corp.test']);
    expect((await ids(f('emails[type eq "work" and value eq "page5@corp.test"]'))).names).toEqual([
      'page5@corp.test',
    ]);
    expect((await ids(f('externalId eq "page-1"'))).names).toEqual(['page1@corp.test']);
    expect((await ids(f('externalId eq "PAGE-1"'))).names).toEqual([]);
    expect((await ids(f('userName sw "page" and active eq false'))).names).toEqual(['page3@corp.test']);
    expect((await ids(f('externalId eq "page-1" or externalId eq "page-5"'))).names).toEqual([
      'page1@corp.test',
      'page5@corp.test',
    ]);
    expect(
      (await ids(f('userName sw "page" and (active eq false or externalId eq "page-2")'))).names,
    ).toEqual(['page2@corp.test', 'page3@corp.test']);
    expect((await ids(f('userName eq "nobody@corp.test"'))).body).toMatchObject({
      totalResults: 0,
      Resources: [],
    });
    const page = await ids(`${f('userName sw "page"')}&startIndex=2&count=2`);
    expect(page.names).toEqual(['page2@corp.test', 'page3@corp.test']);
    expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect((await ids(`${f('userName sw "page"')}&count=0`)).body).toMatchObject({
      totalResults: 5,
      Resources: [],
    });
    expect((await ids(`${f('userName sw "page"')}&startIndex=0&count=1`)).names).toEqual(['page1@corp.test']);
  });

  it('patches a user in the path styles of Entra ID and Okta, and replaces one with PUT', async () => {
    const id = (await scim('POST', '/Users', userBody('pat@corp.test'))).json().id;
    const patched = await scim(
      'PATCH',
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'name.givenName', value: 'Patricia' },
        { op: 'Add', path: 'emails[type eq "home"].value', value: 'pat@home.test' },
        { op: 'replace', path: `${SCIM_SCHEMAS.enterpriseUser}:department`, value: 'Marketing' },
        { op: 'replace', value: { displayName: 'Pat T.', 'name.familyName': 'Tee' } },
        { op: 'add', path: 'title', value: 'Writer' },
        { op: 'remove', path: 'title' },
      ),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const user = patched.json();
    expect(user.name).toEqual({ givenName: 'Patricia', familyName: 'Tee' });
    expect(user.displayName).toBe('Pat T.');
    expect(user.title).toBeUndefined();
    expect(user.emails).toEqual([
      { value: 'pat@corp.test', type: 'work', primary: true },
      { type: 'home', value: 'pat@home.test' },
    ]);
    expect(user[SCIM_SCHEMAS.enterpriseUser]).toEqual({ department: 'Marketing' });
    expect(user.schemas).toContain(SCIM_SCHEMAS.enterpriseUser);
    expect(user.meta.version).toBe('W/"2"');
    const replaced = await scim('PUT', `/Users/${id}`, userBody('pat@corp.test', { displayName: 'Pat' }));
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().emails).toHaveLength(1);
    expect(replaced.json()[SCIM_SCHEMAS.enterpriseUser]).toBeUndefined();
    const taken = await scim(
      'PATCH',
      `/Users/${id}`,
      patchOp({ op: 'replace', path: 'userName', value: 'page1@corp.test' }),
    );
    expectScimError(taken, 409, 'uniqueness');
  });

  it('deactivates a member: the session cookie stops working and the live stream ends; reactivation restores the member', async () => {
    const member = await invitedMember('Dee Deprovisioned', ['editor']);
    const created = await scim('POST', '/Users', userBody(member.email));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    // The account was already a member: it is bound at once, no invitation is made.
    expect(await invitationOf(member.email)).toBeUndefined();
    const cookie = { cookie: `marquee_session=${member.token}` };
    const asCookie = () => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: cookie });
    expect((await asCookie()).statusCode).toBe(200);
    const stream = await openEventStream(
      `${base}/api/v1/workspaces/${ws}/live?tab=tab-scim-1234`,
      member.token,
    );
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'ready');

    // Entra ID's style: a value object without a path, with a string for the boolean.
    const off = await scim('PATCH', `/Users/${id}`, patchOp({ op: 'Replace', value: { active: 'False' } }));
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    expect((await asCookie()).statusCode).toBe(401);
    await stream.next((e) => e.event === 'revoked');
    stream.close();
    expect(await memberOf(member.email)).toMatchObject({ active: false });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'scim.user-deactivated'));
    expect(audit.at(-1)).toMatchObject({ userName: 'Entra ID', targetId: member.id });

    // Okta's style: replace with a path.
    const on = await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(on.json().active).toBe(true);
    expect(await memberOf(member.email)).toMatchObject({ active: true, roles: ['editor'] });
    const signIn = await api('POST', '/auth/sign-in', undefined, {
      email: member.email,
      password: member.password,
    });
    const again = { authorization: `Bearer ${signIn.json().token}` };
    const access = await t.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${ws}/members`,
      headers: again,
    });
    expect(access.statusCode).toBe(200);

    // Deleting deactivates the member and ends the session too.
    expect((await scim('DELETE', `/Users/${id}`)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: again })).statusCode).toBe(401);
    expect(await memberOf(member.email)).toMatchObject({ active: false });
    expectScimError(await scim('GET', `/Users/${id}`), 404);
  });

  it('withdraws the invitation of a user deactivated before they joined, and binds one who joins later', async () => {
    const input = newUserInput({ name: 'Late Joiner' });
    const id = (await scim('POST', '/Users', userBody(input.email))).json().id;
    expect(await invitationOf(input.email)).toBeDefined();
    await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(await invitationOf(input.email)).toBeUndefined();
    await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(await invitationOf(input.email)).toBeDefined();
    const joined = await verifiedUser(t, input);
    expect(await memberOf(input.email)).toMatchObject({ active: true });
    await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(await memberOf(input.email)).toMatchObject({ active: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: joined.auth })).statusCode).toBe(
      401,
    );
  });

  it('keeps the last active manager active', async () => {
    const id = (await scim('POST', '/Users', userBody(manager.email))).json().id;
    const before = await auditCount();
    expectScimError(
      await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false })),
      409,
    );
    expectScimError(await scim('DELETE', `/Users/${id}`), 409);
    expect(await memberOf(manager.email)).toMatchObject({ active: true, isWorkspaceManager: true });
    expect(await auditCount()).toBe(before);
  });

  it('maps groups to roles with the single sign-on rules as members are added and removed', async () => {
    const saved = await api('PUT', `/workspaces/${ws}/sso`, manager, {
      issuer: op.issuer,
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      domains: ['corp.test'],
      allowPassword: true,
      roleRules: [
        { claim: 'groups', value: 'Marketing', roles: ['editor'] },
        { claim: 'groups', value: 'web-object-id', roles: ['publisher'] },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const member = await invitedMember('Gus Grouped');
    const userId = (await scim('POST', '/Users', userBody(member.email))).json().id;
    const invitee = (await scim('POST', '/Users', userBody('future@corp.test'))).json().id;

    const marketing = await scim('POST', '/Groups', {
      schemas: [SCIM_SCHEMAS.group],
      displayName: 'Marketing',
      members: [{ value: userId }],
    });
    expect(marketing.statusCode, marketing.body).toBe(201);
    const marketingId = marketing.json().id;
    expect(marketing.json().members).toEqual([
      expect.objectContaining({ value: userId, display: member.email }),
    ]);
    expect(await memberOf(member.email)).toMatchObject({ roles: ['editor'] });
    expectScimError(await scim('POST', '/Groups', { displayName: 'marketing' }), 409, 'uniqueness');

    // Matched by the provider's object id (externalId), members added the Entra ID way.
    const web = (
      await scim('POST', '/Groups', { displayName: 'Web team', externalId: 'web-object-id' })
    ).json();
    const added = await scim(
      'PATCH',
      `/Groups/${web.id}`,
      patchOp({ op: 'Add', path: 'members', value: [{ value: userId }, { value: invitee }] }),
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(await memberOf(member.email)).toMatchObject({ roles: ['editor', 'publisher'] });
    expect(await invitationOf('future@corp.test')).toMatchObject({ roles: ['publisher'] });
    expect(
      (await scim('GET', `/Users/${userId}`)).json().groups.map((g: { display: string }) => g.display),
    ).toEqual(['Marketing', 'Web team']);

    // Okta removes by a value filter; Entra ID by a value list.
    await scim(
      'PATCH',
      `/Groups/${marketingId}`,
      patchOp({ op: 'remove', path: `members[value eq "${userId}"]` }),
    );
    expect(await memberOf(member.email)).toMatchObject({ roles: ['publisher'] });
    await scim(
      'PATCH',
      `/Groups/${web.id}`,
      patchOp({ op: 'Remove', path: 'members', value: [{ value: invitee }] }),
    );
    expect(await invitationOf('future@corp.test')).toMatchObject({ roles: [] });

    // A rename can match another rule; deleting the group takes its roles.
    await scim(
      'PATCH',
      `/Groups/${marketingId}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: userId }] }),
    );
    expect(await memberOf(member.email)).toMatchObject({ roles: ['editor', 'publisher'] });
    await scim(
      'PATCH',
      `/Groups/${marketingId}`,
      patchOp({ op: 'replace', path: 'displayName', value: 'Sales' }),
    );
    expect(await memberOf(member.email)).toMatchObject({ roles: ['publisher'] });
    expect((await scim('DELETE', `/Groups/${web.id}`)).statusCode).toBe(204);
    expect(await memberOf(member.email)).toMatchObject({ roles: [] });
    expectScimError(await scim('GET', `/Groups/${web.id}`), 404);

    const listed = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "sales"')}&excludedAttributes=members`,
    );
    expect(listed.json().Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    expect(listed.json().totalResults).toBe(1);
    const byMember = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent(`members.value eq "${userId}"`)}`,
    );
    expect(byMember.json().Resources.map((g: { displayName: string }) => g.displayName)).toEqual(['Sales']);
    const replaced = await scim('PUT', `/Groups/${marketingId}`, { displayName: 'Marketing', members: [] });
    expect(replaced.json().members).toEqual([]);
    expect(await memberOf(member.email)).toMatchObject({ roles: [] });

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetType, 'scim-group'));
    expect(new Set(audit.map((r) => r.action))).toEqual(
      new Set(['scim.group-created', 'scim.group-updated', 'scim.group-deleted']),
    );
    expect(audit.every((r) => r.userName === 'Entra ID')).toBe(true);
  });

  it('never answers 5xx to arbitrary bodies, PATCH operations and filters with a valid token', async () => {
    const userId = (await scim('POST', '/Users', userBody('fuzz@corp.test'))).json().id;
    const groupId = (await scim('POST', '/Groups', { displayName: 'Fuzzed' })).json().id;
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('\u0000', '__proto__', 'constructor', 'emails[', 'members[value eq "x"]', 'urn:x', ''),
    );
    const operation = fc.record(
      {
        op: fc.oneof(fc.constantFrom('add', 'Replace', 'remove'), text),
        path: fc.oneof(
          text,
          fc.constantFrom(
            'active',
            'name.givenName',
            'emails[type eq "work"].value',
            'members',
            'displayName',
          ),
        ),
        value: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    );
    const write = fc.oneof(
      fc.record({ method: fc.constant('POST' as const), path: fc.constantFrom('/Users', '/Groups') }),
      fc.record({
        method: fc.constantFrom('PUT' as const, 'PATCH' as const),
        path: fc.constantFrom(`/Users/${userId}`, `/Groups/${groupId}`),
      }),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc
        .array(operation, { maxLength: 4 })
        .map((Operations) => ({ schemas: [SCIM_SCHEMAS.patchOp], Operations })),
      fc.dictionary(
        fc.constantFrom('userName', 'emails', 'active', 'members', 'displayName', 'name'),
        fc.jsonValue(),
      ),
    );
    await fc.assert(
      fc.asyncProperty(write, body, text, async (target, payload, filter) => {
        const res = await scim(target.method, target.path, payload);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const listed = await scim(
          'GET',
          `/${target.path.split('/')[1]}?filter=${encodeURIComponent(filter)}`,
        );
        expect(listed.statusCode, listed.body).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});
