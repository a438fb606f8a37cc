import type { ServiceProviderConfig } from '../config';
import { ProviderError, type OAuth1Adapter, type TokenSet } from './oauth';
import { signedJson, userToken } from './oauth1';

/**
 * The microblogging service: X's 3-legged OAuth 1.0a, which its Ads API requires (request token at
 * `{AUTH_URL}/oauth/request_token` with the callback, the user's consent at `{AUTH_URL}/oauth/authorize`,
 * access token and secret at `{AUTH_URL}/oauth/access_token`), then user-context calls signed with
 * HMAC-SHA1: `1.1/account/verify_credentials.json` for the profile, `1.1/oauth/invalidate_token` to revoke
 * and the Ads API's interest targeting criteria (`{X_ADS_API_URL}/12/targeting_criteria/interests`).
 * X's access tokens do not expire, so there is nothing to refresh.
 */

export async function searchInterests(config: ServiceProviderConfig, tokens: TokenSet, term: string) {
  const url = `${config.adsApiUrl}/12/targeting_criteria/interests`;
  const body = await signedJson<{
    data?: { name: string; targeting_value: string; targeting_type: string }[];
  }>(config, { method: 'GET', url, query: { q: term } }, userToken(tokens));
  if (!Array.isArray(body.data)) throw new ProviderError('The interest search answered no data', 502);
  return body.data.map(({ name, targeting_value, targeting_type }) => ({
    name: String(name),
    targeting_value: String(targeting_value),
    targeting_type: String(targeting_type),
  }));
}

export const x: OAuth1Adapter = {
  provider: 'x',
  protocol: 'oauth1',
  requestTokenUrl: (config) => `${config.authUrl}/oauth/request_token`,
  authorizeUrl: (config) => `${config.authUrl}/oauth/authorize`,
  accessTokenUrl: (config) => `${config.authUrl}/oauth/access_token`,
  async fetchProfile(config, tokens) {
    const me = await signedJson<{ id_str?: string; name?: string; screen_name?: string }>(
      config,
      {
        method: 'GET',
        url: `${config.apiUrl}/1.1/account/verify_credentials.json`,
        query: { skip_status: 'true' },
      },
      userToken(tokens),
    );
    if (!me.id_str) throw new ProviderError('The profile answered no id_str', 502);
    return { id: me.id_str, name: me.name ?? me.screen_name ?? me.id_str, username: me.screen_name };
  },
  async revoke(config, tokens) {
    await signedJson(
      config,
      { method: 'POST', url: `${config.apiUrl}/1.1/oauth/invalidate_token` },
      userToken(tokens),
    );
    return true;
  },
};
