import type { ServiceProvider } from '@shared/api/services';
import { eventbrite } from './eventbrite';
import { facebook } from './facebook';
import { googleAds } from './google-ads';
import { linkedin } from './linkedin';
import { meetup } from './meetup';
import type { ServiceAdapter } from './oauth';
import { x } from './x';

/** The service adapters, by provider name. */
export const SERVICE_ADAPTERS: Partial<Record<ServiceProvider, ServiceAdapter>> = {
  facebook,
  'google-ads': googleAds,
  meetup,
  eventbrite,
  linkedin,
  x,
};
