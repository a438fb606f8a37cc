import crypto from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { ServiceProviderConfig } from '../config';
import { providerJson, ProviderError, providerText, type TokenSet } from './oauth';

/**
 * OAuth 1.0a (RFC 5849) as X still requires it for user-context calls such as the Ads API: every request
 * is signed with HMAC-SHA1 under the client's secret and the user's token secret (`oauth-1.0a` builds the
 * signature base string and the `Authorization: OAuth …` header), and the 3-legged flow is request token →
 * authorize → access token.
 */

/** A token and its secret: the temporary request token, or the user's access token. */
export interface OAuth1Token {
  key: string;
  secret: string;
}

interface SignedRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Query parameters, percent-encoded as the signature base string has them (a space is `%20`, never `+`). */
  query?: Record<string, string>;
  /** Form parameters sent as the `application/x-www-form-urlencoded` body (and signed). */
  form?: Record<string, string>;
  /** Protocol parameters beyond the usual ones (`oauth_callback`, `oauth_verifier`), signed and sent in the header. */
  oauth?: Record<string, string>;
}

const signer = (config: ServiceProviderConfig) =>
  new OAuth({
    consumer: { key: config.clientId ?? '', secret: config.clientSecret ?? '' },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });

const withQuery = (url: string, query: Record<string, string> = {}) => {
  const pairs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return pairs.length > 0 ? `${url}?${pairs.join('&')}` : url;
};

/** The fetch of a signed request: its URL and init. */
function signed(config: ServiceProviderConfig, request: SignedRequest, token?: OAuth1Token) {
  const oauth = signer(config);
  const url = withQuery(request.url, request.query);
  const form = request.form ?? {};
  const authorized = oauth.authorize(
    { url, method: request.method, data: { ...form, ...request.oauth } },
    token,
  );
  const headers: Record<string, string> = {
    ...oauth.toHeader({ ...authorized, ...request.oauth }),
    accept: 'application/json',
  };
  const init: RequestInit = { method: request.method, headers };
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    init.body = new URLSearchParams(form).toString();
  }
  return [url, init] as const;
}

/** A signed call answering JSON (the API); non-2xx answers become ProviderError. */
export const signedJson = <T>(config: ServiceProviderConfig, request: SignedRequest, token: OAuth1Token) =>
  providerJson<T>(...signed(config, request, token));

/** A signed call to a token endpoint, which answers form-encoded `oauth_token=…&oauth_token_secret=…`. */
async function tokenCall(config: ServiceProviderConfig, request: SignedRequest, token?: OAuth1Token) {
  const answer = new URLSearchParams(await providerText(...signed(config, request, token)));
  const key = answer.get('oauth_token');
  const secret = answer.get('oauth_token_secret');
  if (!key || !secret) throw new ProviderError('The provider answered no oauth_token', 502);
  return { token: { key, secret }, answer };
}

/** Step 1: a temporary request token for this callback (the provider must confirm the callback). */
export async function requestToken(config: ServiceProviderConfig, url: string, callback: string) {
  const { token, answer } = await tokenCall(config, {
    method: 'POST',
    url,
    oauth: { oauth_callback: callback },
  });
  if (answer.get('oauth_callback_confirmed') !== 'true') {
    throw new ProviderError('The provider did not confirm the callback', 502);
  }
  return token;
}

/** Step 3: the verifier the user brought back, with the request token, becomes the access token and secret. */
export async function accessToken(
  config: ServiceProviderConfig,
  url: string,
  request: OAuth1Token,
  verifier: string,
): Promise<TokenSet> {
  const { token } = await tokenCall(
    config,
    { method: 'POST', url, oauth: { oauth_verifier: verifier } },
    request,
  );
  return { accessToken: token.key, tokenSecret: token.secret };
}

/** The user's access token as a signing token. */
export const userToken = (tokens: TokenSet): OAuth1Token => ({
  key: tokens.accessToken,
  secret: tokens.tokenSecret ?? '',
});
