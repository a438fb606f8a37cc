import crypto from 'node:crypto';
import {
  AUTH_MESSAGE_SIGN,
  isServiceProvider,
  SERVICE_MESSAGES,
  serviceClientIdSetting,
  type FACEBOOK_SEARCH_TYPES,
  type ServiceProvider,
  type ServiceStatus,
} from '@shared/api/services';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/repository';
import { AppError, badRequest, notConfigured, notFound, providerFailed, unauthorized } from '../http/errors';
import { requireItem, updateItem } from '../items/service';
import { schemaIn } from '../items/scope';
import * as facebookApi from '../providers/facebook';
import {
  authorizationUrl,
  exchangeCode,
  pkcePair,
  ProviderError,
  refreshTokens,
  type ServiceAdapter,
  type TokenSet,
} from '../providers/oauth';
import { accessToken, requestToken } from '../providers/oauth1';
import { SERVICE_ADAPTERS } from '../providers/services';
import * as xApi from '../providers/x';
import { loadWorkspaceAccess, requireManager, type WorkspaceAccess } from '../workspaces/access';
import { latestConnection } from './repository';
import { seal, unseal } from '../lib/sealing';
import { sealTokens, unsealTokens, type ServiceTokens } from './sealing';

/**
 * The cookie carrying the sealed state between `/fun/auth/{provider}` and its callback: OAuth 2's state and
 * PKCE verifier, or OAuth 1.0a's request token and its secret.
 */
export const AUTH_STATE_COOKIE = 'marquee_oauth';
export const AUTH_STATE_PATH = '/fun/auth';
const AUTH_STATE_TTL_MS = 10 * 60 * 1000;
const STATE_PURPOSE = 'oauth-state';
/** Access tokens this close to expiry are refreshed before use. */
const REFRESH_MARGIN_MS = 60 * 1000;

interface AuthState {
  /** What the callback must bring back: OAuth 2's `state`, OAuth 1.0a's request token (`oauth_token`). */
  state: string;
  /** What only the server holds: the PKCE verifier, or the request token's secret. */
  secret: string;
  workspaceId: string;
  provider: ServiceProvider;
  sessionHash: string;
  expiresAt: number;
}

/** The adapter and its configuration, or the 4xx that says why not ('Service not configured'). */
function adapterFor(ctx: AppContext, provider: string): { adapter: ServiceAdapter; config: ConfigOf } {
  if (!isServiceProvider(provider)) throw notFound(SERVICE_MESSAGES.unknownProvider);
  const config = ctx.config.services[provider];
  if (!config.clientId) {
    throw notConfigured(SERVICE_MESSAGES.notConfigured, { setting: serviceClientIdSetting(provider) });
  }
  const adapter = SERVICE_ADAPTERS[provider];
  if (!adapter) throw new AppError('not_implemented', SERVICE_MESSAGES.notBuilt);
  return { adapter, config };
}
type ConfigOf = AppContext['config']['services'][ServiceProvider];

const redirectUri = (ctx: AppContext, provider: string) =>
  `${ctx.config.publicUrl}${AUTH_STATE_PATH}/${provider}/callback`;

async function managerAccess(ctx: AppContext, user: UserRow | null, workspaceId: string) {
  const access = await loadWorkspaceAccess(ctx, user, workspaceId);
  requireManager(access);
  return access;
}

/** Starts the authorization-code flow: where to send the pop-up, and the sealed state for the cookie. */
export async function startAuth(
  ctx: AppContext,
  access: WorkspaceAccess,
  sessionHash: string | null,
  provider: string,
) {
  requireManager(access);
  if (!sessionHash) throw unauthorized();
  const workspaceId = access.workspace.id;
  const { adapter, config } = adapterFor(ctx, provider);
  const { location, state, secret } = await authorizationStart(adapter, config, redirectUri(ctx, provider));
  const sealed: AuthState = {
    state,
    secret,
    workspaceId,
    provider: adapter.provider,
    sessionHash,
    expiresAt: Date.now() + AUTH_STATE_TTL_MS,
  };
  return {
    location,
    cookie: seal(ctx.config.secret, STATE_PURPOSE, sealed),
    maxAgeSeconds: AUTH_STATE_TTL_MS / 1000,
  };
}

/** Where the pop-up goes, and what binds the callback to this start (OAuth 1.0a asks the provider first). */
async function authorizationStart(adapter: ServiceAdapter, config: ConfigOf, callback: string) {
  if (adapter.protocol === 'oauth1') {
    const temporary = await requestToken(config, adapter.requestTokenUrl(config), callback).catch(
      asBadGateway,
    );
    const location = new URL(adapter.authorizeUrl(config));
    location.searchParams.set('oauth_token', temporary.key);
    return { location: location.toString(), state: temporary.key, secret: temporary.secret };
  }
  const { verifier, challenge } = pkcePair();
  const state = crypto.randomBytes(24).toString('base64url');
  const location = authorizationUrl(adapter, config, { redirectUri: callback, state, challenge });
  return { location, state, secret: verifier };
}

/** The callback's query: OAuth 2's code and state, or OAuth 1.0a's request token and verifier. */
export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  oauth_token?: string;
  oauth_verifier?: string;
  denied?: string;
}

/** The tokens the callback's grant is worth, with what was sealed at the start. */
function redeem(
  adapter: ServiceAdapter,
  config: ConfigOf,
  query: CallbackQuery,
  sealed: AuthState,
  callback: string,
) {
  if (adapter.protocol === 'oauth1') {
    if (query.denied || !query.oauth_verifier) {
      throw new AppError(
        'provider_refused',
        query.denied ? 'The authorization was denied' : 'oauth_verifier is required',
      );
    }
    const request = { key: sealed.state, secret: sealed.secret };
    return accessToken(config, adapter.accessTokenUrl(config), request, query.oauth_verifier);
  }
  if (query.error || !query.code) {
    throw new AppError('provider_refused', query.error_description || query.error || 'code is required');
  }
  return exchangeCode(adapter, config, { code: query.code, redirectUri: callback, verifier: sealed.secret });
}

const sameText = (a: string, b: string) =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The callback: the state must be the one sealed in this browser's cookie for this session and provider;
 * then the code (with the PKCE verifier) becomes tokens, the profile is fetched and the tokens are sealed
 * for the workspace and provider. Answers what the pop-up posts to the opener.
 */
export async function finishAuth(
  ctx: AppContext,
  user: UserRow | null,
  sessionHash: string | null,
  provider: string,
  query: CallbackQuery,
  cookie: string | undefined,
) {
  const { adapter, config } = adapterFor(ctx, provider);
  const sealed = unseal<AuthState>(ctx.config.secret, STATE_PURPOSE, cookie);
  // X sends the request token back as `oauth_token`, or as `denied` when the user refused.
  const returned = adapter.protocol === 'oauth1' ? (query.oauth_token ?? query.denied) : query.state;
  if (
    !sealed ||
    !sessionHash ||
    !returned ||
    sealed.provider !== provider ||
    sealed.expiresAt < Date.now() ||
    !sameText(sealed.sessionHash, sessionHash) ||
    !sameText(sealed.state, returned)
  ) {
    throw badRequest(SERVICE_MESSAGES.badState);
  }
  await managerAccess(ctx, user, sealed.workspaceId);
  try {
    let tokens = await redeem(adapter, config, query, sealed, redirectUri(ctx, provider));
    let extras: Record<string, unknown> = {};
    if (adapter.afterConnect) ({ tokens, extras } = await adapter.afterConnect(config, tokens));
    const profile = { ...(await adapter.fetchProfile(config, tokens)), ...extras };
    return {
      _sign: AUTH_MESSAGE_SIGN,
      encTokens: sealTokens(ctx.config.secret, sealed.workspaceId, provider, { ...tokens, profile }),
      profile,
    };
  } catch (err) {
    if (err instanceof ProviderError) throw providerFailed(err.message);
    throw err;
  }
}

/** The page the pop-up ends on: posts the message to the opener at PUBLIC_URL's origin and closes. */
export function authResultPage(ctx: AppContext, message: object, nonce: string) {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const origin = new URL(ctx.config.publicUrl).origin;
  const said = 'error' in message ? 'The connection failed.' : 'Connected.';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Marquee</title></head><body>
<p>${said} This window closes by itself.</p>
<script nonce="${nonce}">
if (window.opener) window.opener.postMessage(${json(message)}, ${json(origin)});
window.close();
</script></body></html>`;
}

/** A `service` item of the workspace, for managers only (403 for others, 404 outside the workspace). */
async function serviceItem(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const scope = schemaIn(access, 'service');
  const item = await requireItem(ctx, scope, id);
  const connection = (item.data.connection ?? {}) as Record<string, unknown>;
  return { scope, item, connection };
}

type Loaded = Awaited<ReturnType<typeof serviceItem>>;

/** Saves the item's next version with its connection replaced (one transaction; 409 when stale). */
const saveConnection = (ctx: AppContext, loaded: Loaded, connection: Record<string, unknown>) =>
  updateItem(ctx, loaded.scope, loaded.item.id, { ...loaded.item.data, connection }, loaded.item.version);

const failed = (): ServiceStatus => ({ status: 'failed', message: SERVICE_MESSAGES.failed });

/**
 * Checks a connection with the provider's profile call, refreshing expired tokens first (the refreshed
 * tokens are saved as the item's next version). Answers the status the field shows.
 */
export async function pingService(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
): Promise<ServiceStatus> {
  const workspaceId = access.workspace.id;
  const loaded = await serviceItem(ctx, access, id);
  const provider = String(loaded.connection.provider ?? '');
  const { adapter, config } = adapterFor(ctx, provider);
  if (!loaded.connection.encTokens) throw badRequest(SERVICE_MESSAGES.notConnected);
  let tokens = unsealTokens(ctx.config.secret, workspaceId, provider, loaded.connection.encTokens);
  if (!tokens) return failed();
  try {
    if (tokens.expiresAt !== undefined && tokens.expiresAt < Date.now() + REFRESH_MARGIN_MS) {
      if (!tokens.refreshToken || adapter.protocol !== 'oauth2') return failed();
      const fresh: TokenSet = await refreshTokens(adapter, config, tokens.refreshToken);
      tokens = { ...tokens, ...fresh };
      const encTokens = sealTokens(ctx.config.secret, workspaceId, provider, tokens);
      await saveConnection(ctx, loaded, { ...loaded.connection, encTokens });
    }
    const profile = await adapter.fetchProfile(config, tokens);
    const warning = await adapter.warning?.(config, tokens);
    if (warning) return { status: 'warning', message: warning, profile };
    return { status: 'success', message: SERVICE_MESSAGES.connected, profile };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    if (err.tokenRejected) return failed();
    return { status: 'warning', message: err.message };
  }
}

/** Revokes the grant at the provider where it can, then clears the connection (the item's next version). */
export async function deleteService(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const workspaceId = access.workspace.id;
  const loaded = await serviceItem(ctx, access, id);
  const provider = String(loaded.connection.provider ?? '');
  let revoked = false;
  const adapter = isServiceProvider(provider) ? SERVICE_ADAPTERS[provider] : undefined;
  const config = isServiceProvider(provider) ? ctx.config.services[provider] : undefined;
  const tokens = unsealTokens(ctx.config.secret, workspaceId, provider, loaded.connection.encTokens);
  if (adapter?.revoke && config?.clientId && tokens) {
    try {
      revoked = await adapter.revoke(config, tokens);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      ctx.log.warn({ provider, status: err.status }, 'revoking a service grant failed; clearing it anyway');
    }
  }
  const row = await saveConnection(ctx, loaded, { provider });
  return { revoked, version: row.version };
}

/** The tokens of the workspace's connection to a provider, for searches any member may run. */
async function workspaceTokens(
  ctx: AppContext,
  access: WorkspaceAccess,
  provider: ServiceProvider,
): Promise<{ config: ConfigOf; tokens: ServiceTokens }> {
  const workspaceId = access.workspace.id;
  const { config } = adapterFor(ctx, provider);
  const row = await latestConnection(ctx.db, workspaceId, provider);
  const tokens = row && unsealTokens(ctx.config.secret, workspaceId, provider, row.connection.encTokens);
  if (!tokens) throw badRequest(SERVICE_MESSAGES.notConnected);
  return { config, tokens };
}

const asBadGateway = (err: unknown, prefix?: string): never => {
  if (err instanceof ProviderError) {
    throw providerFailed(prefix ? `${prefix}: ${err.message}` : err.message);
  }
  throw err;
};

export async function facebookInterests(
  ctx: AppContext,
  access: WorkspaceAccess,
  searchType: (typeof FACEBOOK_SEARCH_TYPES)[number],
  term: string,
) {
  const { config, tokens } = await workspaceTokens(ctx, access, 'facebook');
  try {
    return {
      data: { data: await facebookApi.searchTargeting(config, tokens.accessToken, searchType, term) },
    };
  } catch (err) {
    return asBadGateway(err);
  }
}

export async function xInterests(ctx: AppContext, access: WorkspaceAccess, term: string) {
  const { config, tokens } = await workspaceTokens(ctx, access, 'x');
  try {
    return await xApi.searchInterests(config, tokens, term);
  } catch (err) {
    return asBadGateway(err);
  }
}

/**
 * `/fun/token/token-exchange`: a short-lived social network token becomes a long-lived one, answered
 * sealed for the workspace (an encTokens value), never in the clear.
 */
export async function exchangeToken(ctx: AppContext, access: WorkspaceAccess, token: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const { adapter, config } = adapterFor(ctx, 'facebook');
  try {
    const long = await facebookApi.longLivedToken(config, token);
    const profile = await adapter.fetchProfile(config, long);
    return { access_token: sealTokens(ctx.config.secret, workspaceId, 'facebook', { ...long, profile }) };
  } catch (err) {
    return asBadGateway(err, SERVICE_MESSAGES.tokenExchangeFailed);
  }
}
