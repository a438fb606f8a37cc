import crypto from 'node:crypto';
import type { ServiceProvider } from '@shared/api/services';
import type { ServiceProviderConfig } from '../config';

/**
 * The generic OAuth 2 authorization-code client the service adapters use (RFC 6749 and, where the
 * provider supports it, PKCE, RFC 7636): the authorization URL, code exchange and refresh. Adapters add
 * what differs: endpoints, scopes, the profile call, and extra steps after connecting. X's adapter speaks
 * OAuth 1.0a instead (`oauth1.ts`).
 */

export interface TokenSet {
  accessToken: string;
  /** OAuth 1.0a: the access token's secret, which signs every call. */
  tokenSecret?: string;
  refreshToken?: string;
  expiresAt?: number;
}

/** The provider answered with an error (or not at all); `status` is its HTTP status, 0 when unreachable. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
  /** The provider refused the token itself: re-authenticate. */
  get tokenRejected() {
    return this.status === 401 || this.status === 400;
  }
}

interface AdapterBase {
  provider: ServiceProvider;
  /** The account's profile, at least `{id, name}`; throws ProviderError. */
  fetchProfile(config: ServiceProviderConfig, tokens: TokenSet): Promise<Record<string, unknown>>;
  /** Steps after the code exchange (e.g. a long-lived token and page lists); answers tokens and profile extras. */
  afterConnect?(
    config: ServiceProviderConfig,
    tokens: TokenSet,
  ): Promise<{ tokens: TokenSet; extras: Record<string, unknown> }>;
  /** What a working connection still lacks (e.g. a permission), said as the provider's warning. */
  warning?(config: ServiceProviderConfig, tokens: TokenSet): Promise<string | undefined>;
  /** Revokes the grant at the provider; answers whether it did. */
  revoke?(config: ServiceProviderConfig, tokens: TokenSet): Promise<boolean>;
}

export interface OAuth2Adapter extends AdapterBase {
  protocol: 'oauth2';
  scopes: readonly string[];
  scopeSeparator: string;
  pkce: boolean;
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'body' | 'basic';
  authorizeUrl(config: ServiceProviderConfig): string;
  /** More authorization parameters the provider wants (e.g. Google's `access_type=offline`). */
  authorizeParams?: Record<string, string>;
  tokenUrl(config: ServiceProviderConfig): string;
}

/** An OAuth 1.0a provider: request token, the user's authorization, access token (RFC 5849 §2). */
export interface OAuth1Adapter extends AdapterBase {
  protocol: 'oauth1';
  requestTokenUrl(config: ServiceProviderConfig): string;
  authorizeUrl(config: ServiceProviderConfig): string;
  accessTokenUrl(config: ServiceProviderConfig): string;
}

export type ServiceAdapter = OAuth2Adapter | OAuth1Adapter;

/** A PKCE verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizationUrl(
  adapter: OAuth2Adapter,
  config: ServiceProviderConfig,
  options: { redirectUri: string; state: string; challenge: string },
): string {
  const url = new URL(adapter.authorizeUrl(config));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId ?? '');
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  url.searchParams.set('scope', adapter.scopes.join(adapter.scopeSeparator));
  for (const [key, value] of Object.entries(adapter.authorizeParams ?? {})) url.searchParams.set(key, value);
  if (adapter.pkce) {
    url.searchParams.set('code_challenge', options.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/** The most telling message in a provider's error body (Graph, OAuth 2 and X shapes). */
function providerMessage(body: unknown, fallback: string): string {
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Record<string, unknown>;
  const error = b.error as Record<string, unknown> | string | undefined;
  if (error && typeof error === 'object' && typeof error.message === 'string') return error.message;
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | undefined) : undefined;
  if (typeof first?.message === 'string') return first.message;
  for (const key of ['error_description', 'detail', 'message', 'title']) {
    if (typeof b[key] === 'string') return b[key];
  }
  if (typeof error === 'string') return error;
  return fallback;
}

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
};

/** Fetches a provider's answer as text; non-2xx and unreachable answers become ProviderError. */
export async function providerText(url: string, init: RequestInit = {}): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new ProviderError(`The provider could not be reached: ${(err as Error).message}`, 0);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ProviderError(
      providerMessage(parseJson(text), `The provider answered ${response.status}`),
      response.status,
    );
  }
  return text;
}

/** Fetches JSON from a provider; non-2xx, unreachable and non-JSON answers become ProviderError. */
export async function providerJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const body = parseJson(await providerText(url, init));
  if (body === undefined) throw new ProviderError('The provider answered something other than JSON', 502);
  return body as T;
}

/** POSTs a form (token revocation endpoints); answers the provider's JSON. */
export const formPost = (url: string, form: Record<string, string>) =>
  providerJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** HTTP basic credentials of the OAuth client (RFC 6749 §2.3.1: each part form-encoded). */
const basicAuth = (config: ServiceProviderConfig) =>
  `Basic ${Buffer.from(`${encodeURIComponent(config.clientId ?? '')}:${encodeURIComponent(config.clientSecret ?? '')}`).toString('base64')}`;

async function tokenRequest(
  adapter: OAuth2Adapter,
  config: ServiceProviderConfig,
  params: Record<string, string>,
): Promise<TokenSet> {
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (adapter.clientAuth === 'basic') {
    headers.authorization = basicAuth(config);
    form.set('client_id', config.clientId ?? '');
  } else {
    form.set('client_id', config.clientId ?? '');
    if (config.clientSecret) form.set('client_secret', config.clientSecret);
  }
  const body = await providerJson<Record<string, unknown>>(adapter.tokenUrl(config), {
    method: 'POST',
    headers,
    body: form.toString(),
  });
  return tokenSetOf(body, params.refresh_token);
}

export function tokenSetOf(body: Record<string, unknown>, previousRefresh?: string): TokenSet {
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new ProviderError('The provider answered no access_token', 502);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : previousRefresh,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
  };
}

export const exchangeCode = (
  adapter: OAuth2Adapter,
  config: ServiceProviderConfig,
  options: { code: string; redirectUri: string; verifier: string },
) =>
  tokenRequest(adapter, config, {
    grant_type: 'authorization_code',
    code: options.code,
    redirect_uri: options.redirectUri,
    ...(adapter.pkce ? { code_verifier: options.verifier } : {}),
  });

export const refreshTokens = (adapter: OAuth2Adapter, config: ServiceProviderConfig, refreshToken: string) =>
  tokenRequest(adapter, config, { grant_type: 'refresh_token', refresh_token: refreshToken });
