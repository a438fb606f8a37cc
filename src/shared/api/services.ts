import { z } from 'zod';
import { WorkspaceId } from './workspaces';

/**
 * The HTTP contract of service connections and interest targeting: `/fun/auth/{provider}`
 * and its callback, `/fun/ping/{service}`, `/fun/delete/{service}`, `/fun/interest/{provider}` and
 * `/fun/token/token-exchange` (spec §7).
 */

/** Provider names in URLs and items. */
export const SERVICE_PROVIDERS = ['facebook', 'google-ads', 'meetup', 'eventbrite', 'linkedin', 'x'] as const;
export type ServiceProvider = (typeof SERVICE_PROVIDERS)[number];

export const isServiceProvider = (value: unknown): value is ServiceProvider =>
  typeof value === 'string' && (SERVICE_PROVIDERS as readonly string[]).includes(value);

/** The fixed value the auth pop-up puts in `_sign`; the web app ignores any other message (spec §5). */
export const AUTH_MESSAGE_SIGN = 'marquee-service-auth-v1';

/** Pop-up size (spec §7). */
export const AUTH_POPUP_SIZE = { width: 600, height: 600 } as const;

/** Spec §9: requested at the social network; a missing one is named. */
export const FACEBOOK_PERMISSIONS = [
  'ads_management',
  'ads_read',
  'manage_pages',
  'publish_pages',
  'pages_show_list',
] as const;

/** Spec §7: the social network's interest search types. */
export const FACEBOOK_SEARCH_TYPES = [
  'adinterest',
  'adeducationschool',
  'adeducationmajor',
  'adworkemployer',
  'adworkposition',
  'adgeolocation',
  'adlocale',
] as const;

export const SERVICE_MESSAGES = {
  connected: 'Service Connected',
  notConfigured: 'Service not configured',
  failed: 'Service connection failed.',
  notConnected: 'Service not connected: authenticate first',
  unknownProvider: 'Unknown service provider',
  notBuilt: 'Connecting this provider is not available yet',
  badState: 'The sign-in with the provider does not match this session: start again',
  foreignTokens: 'encTokens were not issued by this server for this workspace and provider',
  providerFailed: 'The provider did not answer as expected',
  tokenExchangeFailed: 'The getLongLivedToken call failed',
  missingPermissions: (names: string[]) => `Missing permissions: ${names.join(', ')}`,
  unknownDetail: (label: string, value: string) =>
    `${label} "${value}" is not one the provider listed for this connection`,
} as const;

/** The environment variable that switches a provider on: `FACEBOOK_CLIENT_ID`, `GOOGLE_ADS_CLIENT_ID`, … */
export const serviceClientIdSetting = (provider: ServiceProvider) =>
  `${provider.toUpperCase().replace(/-/g, '_')}_CLIENT_ID`;

export const ServiceQuery = z.object({
  __marquee_workspace: WorkspaceId.describe('The workspace (spec §7: every /fun/ call carries it)'),
});

export const ProviderParams = z.object({ provider: z.string() });
export const ServiceParams = z.object({ service: z.string().min(1) });

/** What `/fun/ping` answers: the status the field shows (spec §8). */
export const ServiceStatus = z.object({
  status: z.enum(['success', 'warning', 'danger', 'failed']),
  message: z.string(),
  profile: z.unknown().optional(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;

export const FacebookInterestQuery = ServiceQuery.extend({
  searchtype: z.enum(FACEBOOK_SEARCH_TYPES, {
    error: `searchtype must be one of ${FACEBOOK_SEARCH_TYPES.join(', ')}`,
  }),
  searchterm: z
    .string({ error: 'searchterm is required' })
    .trim()
    .min(1, { error: 'searchterm is required' }),
});

export const XInterestQuery = ServiceQuery.extend({
  searchterm: z
    .string({ error: 'searchterm is required' })
    .trim()
    .min(1, { error: 'searchterm is required' }),
});

export const FacebookInterests = z.object({
  data: z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) }),
});

export const XInterests = z.array(
  z.object({ name: z.string(), targeting_value: z.string(), targeting_type: z.string() }),
);

export const TokenExchangeQuery = ServiceQuery.extend({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }),
});

/** `access_token` is the long-lived token sealed for this workspace (an encTokens value), never the plain token. */
export const TokenExchangeAnswer = z.object({ access_token: z.string() });

/**
 * Service details per provider (spec §3) and the profile list each is picked from (the lists the
 * provider returned when connecting): `valueKey` and `labelKey` name the entry's keys.
 */
export interface ServiceDetailDef {
  key: string;
  label: string;
  from: string;
  valueKey: string;
  labelKey: string;
  multiple?: boolean;
}
export const SERVICE_DETAILS: Record<ServiceProvider, readonly ServiceDetailDef[]> = {
  facebook: [
    { key: 'accountId', label: 'Ad account', from: 'adAccounts', valueKey: 'id', labelKey: 'name' },
    { key: 'pageId', label: 'Page', from: 'pageAccounts', valueKey: 'id', labelKey: 'name' },
  ],
  'google-ads': [
    { key: 'parentAccountId', label: 'Manager account', from: 'customers', valueKey: '', labelKey: '' },
    { key: 'customerAccountId', label: 'Customer account', from: 'customers', valueKey: '', labelKey: '' },
  ],
  meetup: [
    {
      key: 'meetupUrlGroupNames',
      label: 'Groups',
      from: 'groups',
      valueKey: 'urlname',
      labelKey: 'name',
      multiple: true,
    },
  ],
  eventbrite: [
    { key: 'accountOrgId', label: 'Organization', from: 'organizations', valueKey: 'id', labelKey: 'name' },
  ],
  linkedin: [{ key: 'linkedinPageId', label: 'Page', from: 'pages', valueKey: 'id', labelKey: 'id' }],
  x: [],
};

/** The options of a detail from a connection's profile (entries that are plain strings are their own label). */
export function detailOptions(
  detail: ServiceDetailDef,
  profile: unknown,
): { value: string; label: string }[] {
  const list =
    profile && typeof profile === 'object' ? (profile as Record<string, unknown>)[detail.from] : null;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    if (typeof entry === 'string') return [{ value: entry, label: entry }];
    if (!entry || typeof entry !== 'object') return [];
    const record = entry as Record<string, unknown>;
    const value = record[detail.valueKey];
    if (typeof value !== 'string' || !value) return [];
    const label = record[detail.labelKey];
    return [{ value, label: typeof label === 'string' && label !== value ? `${label} (${value})` : value }];
  });
}
