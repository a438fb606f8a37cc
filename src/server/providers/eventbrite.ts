import { bearer, providerJson, type OAuth2Adapter } from './oauth';

/**
 * The event ticketing service: Eventbrite's OAuth 2 (authorize at `{AUTH_URL}/authorize`, token at
 * `{AUTH_URL}/token`; no PKCE) and API v3: `users/me/` for the profile and `users/me/organizations/`,
 * which accountOrgId is picked from.
 */
export const eventbrite: OAuth2Adapter = {
  provider: 'eventbrite',
  protocol: 'oauth2',
  scopes: [],
  scopeSeparator: ' ',
  pkce: false,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/authorize`,
  tokenUrl: (config) => `${config.authUrl}/token`,
  async fetchProfile(config, { accessToken }) {
    const [me, orgs] = await Promise.all([
      providerJson<{ id: string; name: string }>(`${config.apiUrl}/users/me/`, {
        headers: bearer(accessToken),
      }),
      providerJson<{ organizations?: { id: string; name: string }[] }>(
        `${config.apiUrl}/users/me/organizations/`,
        {
          headers: bearer(accessToken),
        },
      ),
    ]);
    const organizations = (orgs.organizations ?? []).map(({ id, name }) => ({ id: String(id), name }));
    return { id: String(me.id), name: me.name, organizations };
  },
};
