import type { PublicConfig } from '@shared/api/public-config';
import { SERVICE_PROVIDERS } from '@shared/api/services';
import type { Config } from '../config';

/** What the browser may know about this server: its version, address and which services are set up (names only). */
export function publicConfig(config: Config): PublicConfig {
  const providers = [
    config.smtpUrl && 'smtp',
    config.s3 && 's3',
    config.googleVisionApiKey && 'google-vision',
    config.places.googleApiKey && 'google-places',
    config.places.geocoderUrl && 'nominatim',
    config.visualisation.url && 'visualisation',
    config.sendgridApiKey && 'sendgrid',
    ...SERVICE_PROVIDERS.filter((provider) => config.services[provider].clientId),
  ].filter((name): name is string => typeof name === 'string');
  return {
    version: config.appVersion,
    publicUrl: config.publicUrl,
    providers,
    mapTileUrl: config.places.tileUrl ?? null,
  };
}
