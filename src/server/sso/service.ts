import crypto from 'node:crypto';
import { MESSAGES } from '@shared/api/errors';
import {
  samlAcsPath,
  samlMetadataPath,
  SSO_MESSAGES,
  ssoCallbackPath,
  type SamlConnectionInput,
  type SsoConnection,
  type SsoConnectionInput,
  type SsoSettings,
} from '@shared/api/sso';
import { rolesFromClaims } from '@shared/permissions/sso-role-rules';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import * as users from '../auth/repository';
import { runAccountVerifiedHooks } from '../auth/account-hooks';
import { startSession, type SessionMeta } from '../auth/service';
import { seal, unseal } from '../lib/sealing';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as members from '../workspaces/members-repository';
import { membershipsChanged } from '../workspaces/repository';
import { authorizationFinish, authorizationStart, discover, type OidcChecks } from './oidc';
import * as repo from './repository';
import { checkSamlResponse, samlAuthorizeStart, serviceProviderMetadata, type ServiceProvider } from './saml';

/** The cookie carrying the sealed state, nonce and PKCE verifier between the start and the callback. */
export const SSO_STATE_COOKIE = 'marquee_sso';
export const SSO_STATE_PATH = '/api/v1/auth/sso';
export const SSO_STATE_TTL_S = 10 * 60;
const STATE_PURPOSE = 'sso-state';
/** Accounts made by single sign-on have no password until their owner sets one through a reset. */
const NO_PASSWORD = '!sso';

const secretPurpose = (workspaceId: string) => `sso-client-secret:${workspaceId}`;
const redirectUriOf = (ctx: AppContext, workspaceId: string) =>
  `${ctx.config.publicUrl}${ssoCallbackPath(workspaceId)}`;

/** Our SAML service provider for a workspace: its entity id is its metadata URL, as is usual. */
const serviceProviderOf = (ctx: AppContext, workspaceId: string): ServiceProvider => ({
  entityId: `${ctx.config.publicUrl}${samlMetadataPath(workspaceId)}`,
  acsUrl: `${ctx.config.publicUrl}${samlAcsPath(workspaceId)}`,
});

export const samlMetadataOf = (ctx: AppContext, workspaceId: string) =>
  serviceProviderMetadata(serviceProviderOf(ctx, workspaceId));

function settingsOf(
  ctx: AppContext,
  workspaceId: string,
  row: repo.SsoConnectionRow | undefined,
): SsoSettings {
  const sp = serviceProviderOf(ctx, workspaceId);
  return {
    redirectUri: redirectUriOf(ctx, workspaceId),
    saml: {
      entityId: sp.entityId,
      acsUrl: sp.acsUrl,
      metadataUrl: sp.entityId,
      metadata: serviceProviderMetadata(sp),
    },
    connection: row ? toDto(row) : null,
  };
}

const toDto = (row: repo.SsoConnectionRow): SsoConnection => ({
  kind: row.kind,
  issuer: row.issuer,
  clientId: row.clientId,
  hasClientSecret: row.clientSecret !== '',
  domains: row.domains,
  allowPassword: row.allowPassword,
  roleRules: row.roleRules,
  saml: row.saml,
  updatedAt: row.updatedAt.toISOString(),
  updatedBy: row.updatedBy,
});

function openClientSecret(ctx: AppContext, row: repo.SsoConnectionRow) {
  if (!row.clientSecret) return undefined;
  const secret = unseal<string>(ctx.config.secret, secretPurpose(row.workspaceId), row.clientSecret);
  if (secret === undefined) throw new AppError('provider_failed', SSO_MESSAGES.notConfigured);
  return secret;
}

export async function getSettings(ctx: AppContext, access: WorkspaceAccess): Promise<SsoSettings> {
  requireManager(access);
  return settingsOf(ctx, access.workspace.id, await repo.findConnection(ctx.db, access.workspace.id));
}

/** Reads the provider's discovery document: what the settings screen's "Test connection" shows. */
export async function testConnection(ctx: AppContext, access: WorkspaceAccess, issuer: string) {
  requireManager(access);
  const config = await discover(issuer, 'connection-test', undefined);
  const metadata = config.serverMetadata();
  return {
    ok: true as const,
    issuer: metadata.issuer,
    authorizationEndpoint: metadata.authorization_endpoint ?? '',
  };
}

/**
 * Saves the connection once discovery succeeds with it: the secret sealed for this workspace (kept when
 * left out), the domains checked against other workspaces', every role of the rules an existing one.
 */
export async function saveSettings(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: SsoConnectionInput,
): Promise<SsoSettings> {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const domains = await checkedDomainsAndRules(ctx, access, body);
  const existing = await repo.findConnection(ctx.db, workspaceId);
  const secret = body.clientSecret ?? (existing ? openClientSecret(ctx, existing) : undefined);
  await discover(body.issuer, body.clientId, secret || undefined);
  const row = await ctx.db.transaction(async (tx) => {
    const saved = await repo.saveConnection(tx, {
      workspaceId,
      issuer: body.issuer,
      clientId: body.clientId,
      clientSecret: secret ? seal(ctx.config.secret, secretPurpose(workspaceId), secret) : '',
      kind: 'oidc',
      saml: null,
      domains,
      allowPassword: body.allowPassword,
      roleRules: body.roleRules,
      updatedBy: access.member.displayName,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'sso.updated',
          targetType: 'sso-connection',
          targetId: workspaceId,
          label: body.issuer,
          detail: {
            issuer: body.issuer,
            clientId: body.clientId,
            domains,
            allowPassword: body.allowPassword,
            roleRules: body.roleRules,
            isSecretChanged: body.clientSecret !== undefined,
          },
        },
      ],
    });
    return saved;
  });
  return settingsOf(ctx, workspaceId, row);
}

/** Every role of the rules an existing one, the domains owned by no other workspace: answers the domains. */
async function checkedDomainsAndRules(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: { domains: string[]; roleRules: SsoConnectionInput['roleRules'] },
) {
  for (const rule of body.roleRules)
    for (const role of rule.roles)
      if (!Object.hasOwn(access.workspace.roles, role)) throw badRequest(`Role "${role}" does not exist`);
  const domains = [...new Set(body.domains)];
  const taken = await repo.domainsOwnedElsewhere(ctx.db, access.workspace.id, domains);
  if (taken.length) throw conflict(SSO_MESSAGES.domainTaken(taken[0]));
  return domains;
}

/**
 * Saves a SAML 2.0 connection in place of the workspace's connection: the identity provider's entity
 * id, its single sign-on URL and its signing certificate, pinned (only assertions it signed sign in).
 */
export async function saveSamlSettings(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: SamlConnectionInput,
): Promise<SsoSettings> {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const domains = await checkedDomainsAndRules(ctx, access, body);
  if (!crypto.X509Certificate || !isCertificate(body.idpCert))
    throw badRequest('idpCert: The certificate could not be read');
  const saml = { entryPoint: body.entryPoint, idpCert: body.idpCert, audience: body.audience };
  const row = await ctx.db.transaction(async (tx) => {
    const saved = await repo.saveConnection(tx, {
      workspaceId,
      kind: 'saml',
      issuer: body.idpIssuer,
      clientId: '',
      clientSecret: '',
      saml,
      domains,
      allowPassword: body.allowPassword,
      roleRules: body.roleRules,
      updatedBy: access.member.displayName,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'sso.updated',
          targetType: 'sso-connection',
          targetId: workspaceId,
          label: body.idpIssuer,
          detail: {
            kind: 'saml',
            issuer: body.idpIssuer,
            entryPoint: body.entryPoint,
            certificateFingerprint: new crypto.X509Certificate(body.idpCert).fingerprint256,
            domains,
            allowPassword: body.allowPassword,
            roleRules: body.roleRules,
          },
        },
      ],
    });
    return saved;
  });
  return settingsOf(ctx, workspaceId, row);
}

function isCertificate(pem: string) {
  try {
    new crypto.X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

export async function deleteSettings(ctx: AppContext, access: WorkspaceAccess) {
  requireManager(access);
  await ctx.db.transaction(async (tx) => {
    const removed = await repo.deleteConnection(tx, access.workspace.id);
    if (!removed) throw notFound(SSO_MESSAGES.notConfigured);
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'sso.deleted',
          targetType: 'sso-connection',
          targetId: access.workspace.id,
          label: removed.issuer,
        },
      ],
    });
  });
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Where the sign-in page sends an address: the workspace owning its domain, and whether a password may do. */
export async function discoverForEmail(ctx: AppContext, email: string) {
  const connection = email.includes('@')
    ? await repo.findConnectionByDomain(ctx.db, domainOf(email))
    : undefined;
  return {
    workspaceId: connection?.workspaceId ?? null,
    isPasswordAllowed: connection?.allowPassword ?? true,
  };
}

/** The password sign-in guard: an address at a domain whose workspace enforces single sign-on is refused. */
export async function refusePasswordWhereEnforced(db: Db, email: string) {
  if (!email.includes('@')) return;
  const connection = await repo.findConnectionByDomain(db, domainOf(email));
  if (connection && !connection.allowPassword)
    throw new AppError('sso_required', SSO_MESSAGES.passwordRefused, { workspaceId: connection.workspaceId });
}

interface SsoState extends OidcChecks {
  workspaceId: string;
  returnTo: string;
  /** For linking: the session that asked, which must be the one that comes back. */
  linkSessionHash: string | null;
  expiresAt: number;
}

/** Only paths of this app: a returnTo of another origin would make sign-in an open redirect. */
const safeReturnTo = (returnTo: string | undefined, fallback: string) =>
  returnTo && /^\/(?![/\\])/.test(returnTo) ? returnTo : fallback;

async function connectionFor(ctx: AppContext, workspaceId: string) {
  const connection = await repo.findConnection(ctx.db, workspaceId);
  if (!connection) throw notFound(SSO_MESSAGES.notConfigured);
  const config = await discover(connection.issuer, connection.clientId, openClientSecret(ctx, connection));
  return { connection, config };
}

/** Starts the authorization-code flow: where to send the browser, and the sealed state for the cookie. */
export async function startSignIn(
  ctx: AppContext,
  workspaceId: string,
  options: { returnTo?: string; linkSessionHash: string | null },
) {
  const connection = await repo.findConnection(ctx.db, workspaceId);
  if (!connection) throw notFound(SSO_MESSAGES.notConfigured);
  if (connection.kind === 'saml') {
    if (options.linkSessionHash) throw badRequest(SSO_MESSAGES.samlNoLink);
    return startSamlSignIn(ctx, connection, options.returnTo);
  }
  const { config } = await connectionFor(ctx, workspaceId);
  const { location, checks } = await authorizationStart(config, redirectUriOf(ctx, workspaceId));
  const state: SsoState = {
    ...checks,
    workspaceId,
    returnTo: safeReturnTo(options.returnTo, `/${workspaceId}`),
    linkSessionHash: options.linkSessionHash,
    expiresAt: Date.now() + SSO_STATE_TTL_S * 1000,
  };
  return { location, cookie: seal(ctx.config.secret, STATE_PURPOSE, state) };
}

const sameText = (a: string, b: string) =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The account an identity signs in: its bound one, the signed-in one it links, or a new one. */
async function accountOf(
  tx: Tx,
  connection: repo.SsoConnectionRow,
  claims: { sub: string; email?: unknown; name?: unknown },
  linkUserId: string | null,
) {
  const { workspaceId, issuer } = connection;
  const bound = await repo.findIdentity(tx, workspaceId, issuer, claims.sub);
  if (bound) {
    if (linkUserId && bound.userId !== linkUserId) throw conflict(SSO_MESSAGES.linkedElsewhere);
    await repo.touchIdentity(tx, workspaceId, issuer, claims.sub);
    return { user: (await users.findUserById(tx, bound.userId))!, how: 'signed-in' as const };
  }
  if (linkUserId) {
    if (await repo.findIdentityOfUser(tx, workspaceId, linkUserId))
      throw conflict(SSO_MESSAGES.linkedElsewhere);
    await repo.insertIdentity(tx, { workspaceId, issuer, subject: claims.sub, userId: linkUserId });
    return { user: (await users.findUserById(tx, linkUserId))!, how: 'linked' as const };
  }
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  // A new account only for an address at a domain the workspace owns: the provider vouches for those.
  if (!email.includes('@') || !connection.domains.includes(domainOf(email)))
    throw forbidden(SSO_MESSAGES.noEmail);
  // Never bound by email alone: the owner of that account links it while signed in.
  if (await users.findUserByEmail(tx, email)) throw conflict(SSO_MESSAGES.emailTaken);
  const name =
    typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 100) : email;
  const user = await users.insertUser(tx, {
    id: randomId(),
    name,
    email,
    passwordHash: NO_PASSWORD,
    emailVerified: true,
  });
  if (!user) throw conflict(SSO_MESSAGES.emailTaken);
  await repo.insertIdentity(tx, { workspaceId, issuer, subject: claims.sub, userId: user.id });
  return { user, how: 'created' as const };
}

/**
 * Makes or updates the membership from the role rules, at every sign-in: a group removed at the
 * provider removes its role. The last active manager keeps manager rights.
 */
async function applyRoleRules(
  tx: Tx,
  connection: repo.SsoConnectionRow,
  user: users.UserRow,
  claims: object,
) {
  const workspace = {
    id: connection.workspaceId,
    roles: await repo.workspaceRolesOf(tx, connection.workspaceId),
  };
  const granted = rolesFromClaims(connection.roleRules, claims as Record<string, unknown>, workspace.roles);
  const member = await members.findMember(tx, workspace.id, user.id);
  if (!member) {
    await members.insertMember(tx, {
      workspaceId: workspace.id,
      userId: user.id,
      displayName: user.name,
      roles: granted.roles,
      isManager: granted.isWorkspaceManager,
    });
    return { ...granted, isChanged: true };
  }
  const roles = granted.roles;
  let isManager = granted.isWorkspaceManager;
  if (member.isManager && !isManager && member.active) {
    isManager = (await members.countActiveManagers(tx, workspace.id)) <= 1;
  }
  const isChanged = member.isManager !== isManager || JSON.stringify(member.roles) !== JSON.stringify(roles);
  if (isChanged) await members.updateMember(tx, workspace.id, user.id, { roles, isManager });
  return { roles, isWorkspaceManager: isManager, isChanged };
}

/**
 * The callback: the state must be the one sealed in this browser's cookie for this workspace; the code
 * becomes a checked ID token, whose (issuer, subject) names the account; the role rules set the
 * membership, and a session starts. Answers the session token and where to go.
 */
export async function finishSignIn(
  ctx: AppContext,
  input: {
    workspaceId: string;
    callbackUrl: URL;
    returnedState: string | undefined;
    cookie: string | undefined;
    sessionHash: string | null;
    sessionUserId: string | null;
    meta: SessionMeta;
  },
) {
  const sealed = unseal<SsoState>(ctx.config.secret, STATE_PURPOSE, input.cookie);
  if (
    !sealed ||
    !input.returnedState ||
    sealed.workspaceId !== input.workspaceId ||
    sealed.expiresAt < Date.now() ||
    !sameText(sealed.state, input.returnedState)
  )
    throw badRequest(SSO_MESSAGES.badState);
  const isLinking = sealed.linkSessionHash !== null;
  if (isLinking && (!input.sessionHash || !sameText(sealed.linkSessionHash!, input.sessionHash)))
    throw badRequest(SSO_MESSAGES.badState);
  const { connection, config } = await connectionFor(ctx, input.workspaceId);
  const claims = await authorizationFinish(config, input.callbackUrl, sealed).catch((err: unknown) => {
    ctx.log.info({ err, workspaceId: input.workspaceId }, 'single sign-on refused');
    throw err;
  });
  const user = await ctx.db.transaction((tx) =>
    signInIdentity(ctx, tx, connection, claims, isLinking ? input.sessionUserId : null, input.meta),
  );
  if (!user.emailVerified) throw forbidden(MESSAGES.emailNotVerified);
  const token = isLinking ? null : await startSession(ctx, user.id, input.meta);
  return { token, returnTo: sealed.returnTo };
}

/**
 * The identity's account (bound, linked or new), its membership from the role rules and the audit row,
 * inside the caller's transaction: the part OpenID Connect and SAML share once the provider is believed.
 */
async function signInIdentity(
  ctx: AppContext,
  tx: Tx,
  connection: repo.SsoConnectionRow,
  claims: { sub: string; email?: unknown; name?: unknown } & object,
  linkUserId: string | null,
  meta: SessionMeta,
) {
  const account = await accountOf(tx, connection, claims, linkUserId);
  const granted = await applyRoleRules(tx, connection, account.user, claims);
  const actor = { id: account.user.id, name: account.user.name, address: meta.address ?? null };
  await runAccountVerifiedHooks(ctx, tx, { ...account.user, address: actor.address });
  await journal(tx, {
    audit: [
      {
        workspaceId: connection.workspaceId,
        user: actor,
        action: account.how === 'linked' ? 'sso.linked' : 'sso.signed-in',
        targetType: 'member',
        targetId: account.user.id,
        label: account.user.name,
        detail: {
          issuer: connection.issuer,
          subject: claims.sub,
          isNewAccount: account.how === 'created',
          roles: granted.roles,
          isWorkspaceManager: granted.isWorkspaceManager,
        },
      },
    ],
    changes: granted.isChanged ? [membershipsChanged(connection.workspaceId, account.user.id)] : [],
  });
  return account.user;
}

interface SamlRelayState {
  workspaceId: string;
  returnTo: string;
  /** The AuthnRequest's id, which the response's InResponseTo must name. */
  requestId: string;
  expiresAt: number;
}
const RELAY_STATE_PURPOSE = 'saml-relay-state';

/**
 * Sends the browser to the identity provider with an AuthnRequest. The identity provider posts its
 * answer back cross-site, where no SameSite cookie comes along: the state travels sealed as RelayState.
 */
async function startSamlSignIn(
  ctx: AppContext,
  connection: repo.SsoConnectionRow,
  returnTo: string | undefined,
) {
  const { workspaceId } = connection;
  const sp = serviceProviderOf(ctx, workspaceId);
  const requestId = `_${crypto.randomBytes(20).toString('hex')}`;
  const state: SamlRelayState = {
    workspaceId,
    returnTo: safeReturnTo(returnTo, `/${workspaceId}`),
    requestId,
    expiresAt: Date.now() + SSO_STATE_TTL_S * 1000,
  };
  const relayState = seal(ctx.config.secret, RELAY_STATE_PURPOSE, state);
  const { location } = await samlAuthorizeStart(samlConnectionOf(connection), sp, relayState, requestId);
  return { location, cookie: null };
}

function samlConnectionOf(connection: repo.SsoConnectionRow) {
  if (connection.kind !== 'saml' || !connection.saml) throw badRequest(SSO_MESSAGES.notSaml);
  return { issuer: connection.issuer, saml: connection.saml };
}

/**
 * The identity provider's HTTP-POST to our ACS: the relay state must be ours for this workspace and
 * unexpired, the assertion signed with the pinned certificate, for our audience, in its time window and
 * answering our request; its ID is stored until it expires, so a replayed assertion is refused. The
 * identity is (entity id, NameID), bound like OpenID's (issuer, subject).
 */
export async function finishSamlSignIn(
  ctx: AppContext,
  input: { workspaceId: string; samlResponse: string; relayState: string | undefined; meta: SessionMeta },
) {
  const state = unseal<SamlRelayState>(ctx.config.secret, RELAY_STATE_PURPOSE, input.relayState);
  if (!state || state.workspaceId !== input.workspaceId || state.expiresAt < Date.now())
    throw badRequest(SSO_MESSAGES.badState);
  const connection = await repo.findConnection(ctx.db, input.workspaceId);
  if (!connection) throw notFound(SSO_MESSAGES.notConfigured);
  const sp = serviceProviderOf(ctx, input.workspaceId);
  const checked = await checkSamlResponse(
    samlConnectionOf(connection),
    sp,
    input.samlResponse,
    state.requestId,
  ).catch((err: unknown) => {
    ctx.log.info(
      { err, cause: (err as { cause?: unknown }).cause, workspaceId: input.workspaceId },
      'SAML sign-in refused',
    );
    throw err;
  });
  const claims = {
    ...checked.attributes,
    sub: checked.profile.nameID,
    email: checked.email,
    name: checked.name,
  };
  const user = await ctx.db.transaction(async (tx) => {
    if (!(await repo.takeSamlAssertion(tx, input.workspaceId, checked.assertionId, checked.expiresAt)))
      throw badRequest(SSO_MESSAGES.samlReplayed);
    return signInIdentity(ctx, tx, connection, claims, null, input.meta);
  });
  if (!user.emailVerified) throw forbidden(MESSAGES.emailNotVerified);
  const token = await startSession(ctx, user.id, input.meta);
  return { token, returnTo: state.returnTo };
}

/** The callback's URL as the provider redirected to it: the registered redirect URI and the query. */
export function callbackUrlOf(ctx: AppContext, workspaceId: string, rawUrl: string) {
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?')) : '';
  return new URL(redirectUriOf(ctx, workspaceId) + query);
}
