import { z } from 'zod';

/**
 * The public runtime configuration: `GET /__/config.json` and the spec's
 * `GET /__/firebase/init.json` answer it to anyone; it names what is configured, never a secret.
 */
export const DEFAULT_APP_VERSION = '1.8.0';

export const PublicConfig = z.object({
  version: z.string().describe('App version (APP_VERSION; 1.8.0 in the default environment)'),
  publicUrl: z.string().describe('Where the app is served (PUBLIC_URL)'),
  providers: z
    .array(z.string())
    .describe(
      'Names of the external services configured on this server, e.g. smtp, s3, google-places, sendgrid, and the service connection providers (facebook, x, …) with a client id',
    ),
  mapTileUrl: z.string().nullable().describe('The map tile URL template, or null'),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
