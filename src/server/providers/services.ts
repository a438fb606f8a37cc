import type { ServiceProvider } from '@shared/api/services';
import { facebook } from './facebook';
import type { ServiceAdapter } from './oauth';
import { x } from './x';

/** The service adapters built so far, by provider name. */
export const SERVICE_ADAPTERS: Partial<Record<ServiceProvider, ServiceAdapter>> = { facebook, x };
