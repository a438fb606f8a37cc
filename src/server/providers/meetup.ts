import { bearer, providerJson, ProviderError, type OAuth2Adapter } from './oauth';

/**
 * The meetup-group service: Meetup's OAuth 2 (authorize at `{AUTH_URL}/authorize`, token at
 * `{AUTH_URL}/access`; no PKCE) and its GraphQL API (`{API_URL}/gql-ext`): the member and the groups they
 * organise, whose url names meetupUrlGroupNames are picked from.
 */
const SELF_QUERY = 'query { self { id name memberships(first: 50) { edges { node { id name urlname } } } } }';

interface SelfAnswer {
  data?: {
    self?: {
      id: string;
      name: string;
      memberships?: { edges: { node: { id: string; name: string; urlname: string } }[] };
    };
  };
  errors?: { message: string }[];
}

export const meetup: OAuth2Adapter = {
  provider: 'meetup',
  protocol: 'oauth2',
  scopes: ['basic', 'event_management'],
  scopeSeparator: ' ',
  pkce: false,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/authorize`,
  tokenUrl: (config) => `${config.authUrl}/access`,
  async fetchProfile(config, { accessToken }) {
    const body = await providerJson<SelfAnswer>(`${config.apiUrl}/gql-ext`, {
      method: 'POST',
      headers: { ...bearer(accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ query: SELF_QUERY }),
    });
    const self = body.data?.self;
    if (!self) throw new ProviderError(body.errors?.[0]?.message ?? 'The profile answered no data', 502);
    const groups = (self.memberships?.edges ?? []).map(({ node }) => ({
      id: node.id,
      name: node.name,
      urlname: node.urlname,
    }));
    return { id: String(self.id), name: self.name, groups };
  },
};
