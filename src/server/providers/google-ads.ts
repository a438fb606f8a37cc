import { bearer, formPost, providerJson, ProviderError, type OAuth2Adapter } from './oauth';

/**
 * The advertising and search provider: Google's OAuth 2.0 (authorize at `{AUTH_URL}/v2/auth` with PKCE
 * and offline access for a refresh token, token at `{AUTH_URL}/token`) and the Google Ads API's
 * `customers:listAccessibleCustomers`, whose customer ids are what parentAccountId and customerAccountId
 * are picked from. Calls carry `GOOGLE_ADS_DEVELOPER_TOKEN` when set, as the Ads API requires. Delete
 * revokes the grant at `{AUTH_URL}/revoke` (the refresh token, which revokes its access tokens too).
 */
export const googleAds: OAuth2Adapter = {
  provider: 'google-ads',
  protocol: 'oauth2',
  scopes: ['https://www.googleapis.com/auth/adwords'],
  scopeSeparator: ' ',
  pkce: true,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/v2/auth`,
  authorizeParams: { access_type: 'offline', prompt: 'consent' },
  tokenUrl: (config) => `${config.authUrl}/token`,
  async fetchProfile(config, { accessToken }) {
    const body = await providerJson<{ resourceNames?: string[] }>(
      `${config.apiUrl}/customers:listAccessibleCustomers`,
      {
        headers: {
          ...bearer(accessToken),
          ...(config.developerToken ? { 'developer-token': config.developerToken } : {}),
        },
      },
    );
    if (!Array.isArray(body.resourceNames))
      throw new ProviderError('The customer list answered no resourceNames', 502);
    const customers = body.resourceNames.map((name) => name.replace(/^customers\//, ''));
    return { id: customers[0] ?? '', name: `Google Ads ${customers.join(', ')}`.trim(), customers };
  },
  async revoke(config, tokens) {
    await formPost(`${config.authUrl}/revoke`, { token: tokens.refreshToken ?? tokens.accessToken });
    return true;
  },
};
