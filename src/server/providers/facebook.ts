import { FACEBOOK_PERMISSIONS, SERVICE_MESSAGES, type FACEBOOK_SEARCH_TYPES } from '@shared/api/services';
import type { ServiceProviderConfig } from '../config';
import { providerJson, ProviderError, tokenSetOf, type OAuth2Adapter, type TokenSet } from './oauth';

/**
 * The social network: Facebook Login (authorization code at `{AUTH_URL}/dialog/oauth`, token at the Graph
 * API's `/oauth/access_token`) and the Graph and Marketing API (`me`, `me/accounts`, `me/permissions`,
 * the targeting `search`). Graph calls carry the token as `access_token`, as Graph documents.
 */

const graphUrl = (config: ServiceProviderConfig, path: string, params: Record<string, string>) => {
  const url = new URL(`${config.apiUrl}/${path}`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
};

interface GraphList<T> {
  data: T[];
}

/** Exchanges a short-lived user token for a long-lived one (the spec's getLongLivedToken). */
export async function longLivedToken(config: ServiceProviderConfig, shortLived: string): Promise<TokenSet> {
  const body = await providerJson<Record<string, unknown>>(
    graphUrl(config, 'oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: config.clientId ?? '',
      client_secret: config.clientSecret ?? '',
      fb_exchange_token: shortLived,
    }),
  );
  return tokenSetOf(body);
}

async function pageAccounts(config: ServiceProviderConfig, accessToken: string) {
  const body = await providerJson<GraphList<{ id: string; name: string; category?: string }>>(
    graphUrl(config, 'me/accounts', { fields: 'id,name,category', access_token: accessToken }),
  );
  return (body.data ?? []).map(({ id, name, category }) => ({ id: String(id), name, category }));
}

/** Ad accounts the user can use (`me/adaccounts`), which accountId is picked from. */
async function adAccounts(config: ServiceProviderConfig, accessToken: string) {
  const body = await providerJson<GraphList<{ id: string; name: string; account_id?: string }>>(
    graphUrl(config, 'me/adaccounts', { fields: 'id,name,account_id', access_token: accessToken }),
  );
  return (body.data ?? []).map(({ id, name }) => ({ id: String(id), name }));
}

async function grantedPermissions(config: ServiceProviderConfig, accessToken: string) {
  const body = await providerJson<GraphList<{ permission: string; status: string }>>(
    graphUrl(config, 'me/permissions', { access_token: accessToken }),
  );
  return (body.data ?? []).filter((p) => p.status === 'granted').map((p) => p.permission);
}

export async function searchTargeting(
  config: ServiceProviderConfig,
  accessToken: string,
  type: (typeof FACEBOOK_SEARCH_TYPES)[number],
  term: string,
) {
  const body = await providerJson<GraphList<{ id?: string | number; key?: string; name: string }>>(
    graphUrl(config, 'search', { type, q: term, access_token: accessToken }),
  );
  if (!Array.isArray(body.data)) throw new ProviderError('The targeting search answered no data', 502);
  return body.data.map((entry) => ({ id: String(entry.id ?? entry.key ?? ''), name: String(entry.name) }));
}

export const facebook: OAuth2Adapter = {
  provider: 'facebook',
  protocol: 'oauth2',
  scopes: FACEBOOK_PERMISSIONS,
  scopeSeparator: ',',
  pkce: true,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/dialog/oauth`,
  tokenUrl: (config) => `${config.apiUrl}/oauth/access_token`,
  async fetchProfile(config, { accessToken }) {
    const me = await providerJson<{ id: string; name: string }>(
      graphUrl(config, 'me', { fields: 'id,name', access_token: accessToken }),
    );
    return { id: String(me.id), name: me.name };
  },
  /** Long-lived token, then the social ad provider data: appId, pageAccounts, pageTargets, permissions. */
  async afterConnect(config, tokens) {
    const long = await longLivedToken(config, tokens.accessToken);
    const [pages, accounts, permissions] = await Promise.all([
      pageAccounts(config, long.accessToken),
      adAccounts(config, long.accessToken),
      grantedPermissions(config, long.accessToken),
    ]);
    const missing = FACEBOOK_PERMISSIONS.filter((name) => !permissions.includes(name));
    return {
      tokens: long,
      extras: {
        appId: config.clientId,
        pageAccounts: pages,
        adAccounts: accounts,
        pageTargets: pages.map((page) => ({ value: page.id, label: page.name })),
        permissions,
        missingPermissions: missing,
      },
    };
  },
  async warning(config, { accessToken }) {
    const permissions = await grantedPermissions(config, accessToken);
    const missing = FACEBOOK_PERMISSIONS.filter((name) => !permissions.includes(name));
    return missing.length > 0 ? SERVICE_MESSAGES.missingPermissions(missing) : undefined;
  },
  async revoke(config, tokens) {
    await providerJson(graphUrl(config, 'me/permissions', { access_token: tokens.accessToken }), {
      method: 'DELETE',
    });
    return true;
  },
};
