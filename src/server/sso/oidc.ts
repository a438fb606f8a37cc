import * as client from 'openid-client';
import { SSO_MESSAGES } from '@shared/api/sso';
import { badRequest } from '../http/errors';

/** How long a provider's discovered metadata is reused, so a sign-in costs no discovery round trip. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_S = 10;
const cache = new Map<string, { config: client.Configuration; until: number }>();

const isLoopbackHttp = (url: URL) => url.protocol === 'http:';

/** The provider's metadata through discovery, answered 400 naming the issuer when it fails. */
export async function discover(
  issuer: string,
  clientId: string,
  clientSecret: string | undefined,
): Promise<client.Configuration> {
  const key = JSON.stringify([issuer, clientId, clientSecret ?? null]);
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.config;
  const url = new URL(issuer);
  try {
    const config = await client.discovery(
      url,
      clientId,
      clientSecret ? { client_secret: clientSecret } : undefined,
      clientSecret ? client.ClientSecretPost(clientSecret) : client.None(),
      {
        timeout: DISCOVERY_TIMEOUT_S,
        // ID token signatures are checked against the provider's keys too, not only trusted because
        // the token came over TLS from its token endpoint (the keys are fetched once, then cached).
        // Only loopback issuers may be http (checked when the connection is saved).
        execute: [
          client.enableNonRepudiationChecks,
          ...(isLoopbackHttp(url) ? [client.allowInsecureRequests] : []),
        ],
      },
    );
    cache.set(key, { config, until: Date.now() + DISCOVERY_TTL_MS });
    return config;
  } catch (err) {
    throw badRequest(SSO_MESSAGES.discoveryFailed(err instanceof Error ? err.message : String(err)));
  }
}

/** What the browser carries between the redirect to the provider and its callback (sealed in a cookie). */
export interface OidcChecks {
  state: string;
  nonce: string;
  verifier: string;
}

/** The authorization URL of the code flow with PKCE (S256), state and nonce. */
export async function authorizationStart(config: client.Configuration, redirectUri: string) {
  const checks: OidcChecks = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
  };
  const location = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
  });
  return { location: location.toString(), checks };
}

/**
 * Redeems the callback's code with the PKCE verifier and checks the ID token (signature, issuer,
 * audience, expiry, nonce); answers its claims. Any failure is a 400 saying the provider did not confirm.
 */
export async function authorizationFinish(
  config: client.Configuration,
  callbackUrl: URL,
  checks: OidcChecks,
): Promise<client.IDToken> {
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims;
  } catch {
    throw badRequest(SSO_MESSAGES.signInFailed);
  }
}
