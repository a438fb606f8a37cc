import crypto from 'node:crypto';
import type { ServiceProvider } from '@shared/api/services';
import type { ServiceProviderConfig } from '../config';

/**
 * The generic OAuth 2 authorization-code client every service adapter uses (RFC 6749 and, where the
 * provider supports it, PKCE, RFC 7636): the authorization URL, code exchange and refresh. Adapters add
 * what differs: endpoints, scopes, the profile call, and extra steps after connecting.
 */

export interface TokenSet {
  accessToken: string;
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

export interface ServiceAdapter {
  provider: ServiceProvider;
  scopes: readonly string[];
  scopeSeparator: string;
  pkce: boolean;
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'body' | 'basic';
  authorizeUrl(config: ServiceProviderConfig): string;
  /** More authorization parameters the provider wants (e.g. Google's `access_type=offline`). */
  authorizeParams?: Record<string, string>;
  tokenUrl(config: ServiceProviderConfig): string;
  /** The account's profile, at least `{id, name}`; throws ProviderError. */
  fetchProfile(config: ServiceProviderConfig, accessToken: string): Promise<Record<string, unknown>>;
  /** Steps after the code exchange (e.g. a long-lived token and page lists); answers tokens and profile extras. */
  afterConnect?(
    config: ServiceProviderConfig,
    tokens: TokenSet,
  ): Promise<{ tokens: TokenSet; extras: Record<string, unknown> }>;
  /** What a working connection still lacks (e.g. a permission), said as the provider's warning. */
  warning?(config: ServiceProviderConfig, accessToken: string): Promise<string | undefined>;
  /** Revokes the grant at the provider; answers whether it did. */
  revoke?(config: ServiceProviderConfig, tokens: TokenSet): Promise<boolean>;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizationUrl(
  adapter: ServiceAdapter,
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
export function providerMessage(body: unknown, fallback: string): string {
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Record<string, unknown>;
  const error = b.error as Record<string, unknown> | string | undefined;
  if (error && typeof error === 'object' && typeof error.message === 'string') return error.message;
  for (const key of ['error_description', 'detail', 'message', 'title']) {
    if (typeof b[key] === 'string') return b[key];
  }
  if (typeof error === 'string') return error;
  return fallback;
}

/** Fetches JSON from a provider; non-2xx and unreachable answers become ProviderError. */
export async function providerJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new ProviderError(`The provider could not be reached: ${(err as Error).message}`, 0);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    throw new ProviderError(
      providerMessage(body, `The provider answered ${response.status}`),
      response.status,
    );
  }
  if (body === undefined) throw new ProviderError('The provider answered something other than JSON', 502);
  return body as T;
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** HTTP basic credentials of the OAuth client (RFC 6749 §2.3.1: each part form-encoded). */
export const basicAuth = (config: ServiceProviderConfig) =>
  `Basic ${Buffer.from(`${encodeURIComponent(config.clientId ?? '')}:${encodeURIComponent(config.clientSecret ?? '')}`).toString('base64')}`;

async function tokenRequest(
  adapter: ServiceAdapter,
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
  adapter: ServiceAdapter,
  config: ServiceProviderConfig,
  options: { code: string; redirectUri: string; verifier: string },
) =>
  tokenRequest(adapter, config, {
    grant_type: 'authorization_code',
    code: options.code,
    redirect_uri: options.redirectUri,
    ...(adapter.pkce ? { code_verifier: options.verifier } : {}),
  });

export const refreshTokens = (adapter: ServiceAdapter, config: ServiceProviderConfig, refreshToken: string) =>
  tokenRequest(adapter, config, { grant_type: 'refresh_token', refresh_token: refreshToken });
