import { bearer, formPost, providerJson, type OAuth2Adapter } from './oauth';

/**
 * The professional network: LinkedIn's OAuth 2 (authorize at `{AUTH_URL}/authorization`, token at
 * `{AUTH_URL}/accessToken`; PKCE is for native apps only, so none here), the OpenID `v2/userinfo` profile
 * and `rest/organizationAcls?q=roleAssignee`, the pages the member administers, which linkedinPageId is
 * picked from. Delete revokes the token at `{AUTH_URL}/revoke`.
 */
export const linkedin: OAuth2Adapter = {
  provider: 'linkedin',
  protocol: 'oauth2',
  scopes: ['openid', 'profile', 'email', 'r_organization_admin', 'w_organization_social'],
  scopeSeparator: ' ',
  pkce: false,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/authorization`,
  tokenUrl: (config) => `${config.authUrl}/accessToken`,
  async fetchProfile(config, { accessToken }) {
    const [me, acls] = await Promise.all([
      providerJson<{ sub: string; name: string; email?: string }>(`${config.apiUrl}/v2/userinfo`, {
        headers: bearer(accessToken),
      }),
      providerJson<{ elements?: { organization: string; role: string; state?: string }[] }>(
        `${config.apiUrl}/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`,
        {
          headers: {
            ...bearer(accessToken),
            'linkedin-version': '202401',
            'x-restli-protocol-version': '2.0.0',
          },
        },
      ),
    ]);
    const pages = (acls.elements ?? []).map((acl) => ({
      id: acl.organization.replace(/^urn:li:organization:/, ''),
      urn: acl.organization,
    }));
    return { id: me.sub, name: me.name, email: me.email, pages };
  },
  async revoke(config, tokens) {
    await formPost(`${config.authUrl}/revoke`, {
      client_id: config.clientId ?? '',
      client_secret: config.clientSecret ?? '',
      token: tokens.accessToken,
    });
    return true;
  },
};
