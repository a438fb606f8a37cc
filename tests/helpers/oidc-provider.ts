import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person at the test provider: the claims its ID tokens carry (groups among them). */
export interface TestAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  [claim: string]: unknown;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Subject → claims; change them between sign-ins to see the next one apply them. */
  accounts: Map<string, TestAccount>;
  /** Follows an authorization URL through the provider's login as `subject`; answers the redirect back. */
  signInAt(authorizationUrl: string, subject: string): Promise<URL>;
  close(): Promise<void>;
}

/** Grants what the client asks for without a consent screen, as a company's own provider does. */
async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { provider, client, session } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope('openid email profile');
  await grant.save();
  return grant;
}

/**
 * A real OpenID provider (`oidc-provider`) on 127.0.0.1 with one confidential client; its development
 * login form takes any subject and password.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  const clientId = 'marquee-test';
  const clientSecret = 'a-test-client-secret-of-some-length';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups', 'department'],
    },
    conformIdTokenClaims: false,
    loadExistingGrant,
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAt: (url, subject) => followLogin(url, subject, redirectUris),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar and manual redirects: what a browser does between the provider's pages. */
async function followLogin(authorizationUrl: string, subject: string, redirectUris: string[]) {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (redirectUris.some((uri) => url.startsWith(uri))) return new URL(url);
    let res = await send(url);
    if (res.status === 200 && url.includes('/interaction/')) {
      const body = new URLSearchParams({ prompt: 'login', login: subject, password: 'any' });
      res = await send(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`The provider answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('Too many redirects at the provider');
}
