import type { ServiceProviderConfig } from '../config';
import { basicAuth, bearer, providerJson, ProviderError, type ServiceAdapter } from './oauth';

/**
 * The microblogging service: X's OAuth 2.0 with PKCE (authorize at `{AUTH_URL}/authorize`, token and
 * revoke at `{API_URL}/2/oauth2/…` with the client's basic credentials), `GET /2/users/me` for the profile,
 * and the Ads API's interest targeting criteria (`{X_ADS_API_URL}/12/targeting_criteria/interests`).
 */

export async function searchInterests(config: ServiceProviderConfig, accessToken: string, term: string) {
  const url = new URL(`${config.adsApiUrl}/12/targeting_criteria/interests`);
  url.searchParams.set('q', term);
  const body = await providerJson<{
    data?: { name: string; targeting_value: string; targeting_type: string }[];
  }>(url.toString(), { headers: bearer(accessToken) });
  if (!Array.isArray(body.data)) throw new ProviderError('The interest search answered no data', 502);
  return body.data.map(({ name, targeting_value, targeting_type }) => ({
    name: String(name),
    targeting_value: String(targeting_value),
    targeting_type: String(targeting_type),
  }));
}

export const x: ServiceAdapter = {
  provider: 'x',
  scopes: ['tweet.read', 'users.read', 'offline.access'],
  scopeSeparator: ' ',
  pkce: true,
  clientAuth: 'basic',
  authorizeUrl: (config) => `${config.authUrl}/authorize`,
  tokenUrl: (config) => `${config.apiUrl}/2/oauth2/token`,
  async fetchProfile(config, accessToken) {
    const me = await providerJson<{ data?: { id: string; name: string; username?: string } }>(
      `${config.apiUrl}/2/users/me`,
      { headers: bearer(accessToken) },
    );
    if (!me.data) throw new ProviderError('The profile answered no data', 502);
    return { id: String(me.data.id), name: me.data.name, username: me.data.username };
  },
  async revoke(config, tokens) {
    await providerJson(`${config.apiUrl}/2/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(config) },
      body: new URLSearchParams({ token: tokens.accessToken, token_type_hint: 'access_token' }).toString(),
    });
    return true;
  },
};
