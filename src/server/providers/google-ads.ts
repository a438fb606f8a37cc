import { bearer, providerJson, ProviderError, type ServiceAdapter } from './oauth';

/**
 * The advertising and search provider: Google's OAuth 2.0 (authorize at `{AUTH_URL}/v2/auth` with PKCE
 * and offline access for a refresh token, token at `{AUTH_URL}/token`) and the Google Ads API's
 * `customers:listAccessibleCustomers`, whose customer ids are what parentAccountId and customerAccountId
 * are picked from. Calls carry `GOOGLE_ADS_DEVELOPER_TOKEN` when set, as the Ads API requires.
 */
export const googleAds: ServiceAdapter = {
  provider: 'google-ads',
  scopes: ['https://www.googleapis.com/auth/adwords'],
  scopeSeparator: ' ',
  pkce: true,
  clientAuth: 'body',
  authorizeUrl: (config) => `${config.authUrl}/v2/auth`,
  authorizeParams: { access_type: 'offline', prompt: 'consent' },
  tokenUrl: (config) => `${config.authUrl}/token`,
  async fetchProfile(config, accessToken) {
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
};
