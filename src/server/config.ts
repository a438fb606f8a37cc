import { DEFAULT_MAX_COST, DEFAULT_MAX_DEPTH } from '@shared/graphql/cost';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SERVICE_PROVIDERS, type ServiceProvider } from '@shared/api/services';
import { DEFAULT_APP_VERSION } from '@shared/api/public-config';
import { webhookPublicKey } from './campaigns/sendgrid-signature';
import type { SegmentPolicy } from './customers/segments';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * A streaming replica of DATABASE_URL (one server, not a balancer over several) that the delivery API
   * reads published copies from; writes and what must see them stay on DATABASE_URL.
   */
  databaseReadUrl?: string;
  publicUrl: string;
  secret: string;
  smtpUrl?: string;
  mailFrom: string;
  /**
   * DNS servers the sending-domain check asks (`DNS_SERVERS`: comma-separated `ip` or `ip:port`);
   * empty: the system's resolvers.
   */
  dnsServers: string[];
  /** The mail provider's SPF domain that a sending domain's SPF record must include (`MAIL_SPF_INCLUDE`). */
  spfInclude?: string;
  logLevel: string;
  /**
   * Proxies whose X-Forwarded-For / -Proto are believed (addresses, CIDRs or proxy-addr's names such as
   * `loopback`); `false` (the default) takes the client's address from the connection.
   */
  trustProxy: false | string[];
  /** Sign-in, sign-up and password-reset attempts allowed per client address per minute. */
  authRateLimit: number;
  /** Events (track and identify messages) one write key may send per minute to /ingest/v1, per process. */
  ingestRateLimit: number;
  sessionDays: number;
  /**
   * How long the session's user and the caller's membership may be served from this process's memory
   * (ms, at most 5 s; 0 reads them on every request). This process's own writes take effect at once.
   */
  readCacheTtlMs: number;
  /** Bytes of rendered delivery answers one process keeps, least recently used out first. */
  deliveryCacheBytes: number;
  /** The GraphQL delivery API's limits: a query costing more, or nesting fields deeper, is refused (400). */
  graphql: { maxCost: number; maxDepth: number };
  webDir: string;
  /** An S3-compatible bucket for the assets store; undefined keeps assets under DATA_DIR/assets. */
  s3?: S3Config;
  /** Largest accepted upload in bytes (413 above it). */
  uploadMaxBytes: number;
  /** Largest decoded image, in pixels (width × height); larger images are refused as decompression bombs. */
  imageMaxPixels: number;
  /** Google Cloud Vision API key; without it images are analysed locally. */
  googleVisionApiKey?: string;
  /** Base URL of the Vision API (tests point it at a local fake). */
  googleVisionUrl: string;
  /** Run the background jobs (webhook deliveries, schedules) in this process. */
  jobs: boolean;
  /** How often the job worker looks for due jobs (ms; at least 500, pg-boss's shortest poll). */
  jobsPollMs: number;
  /**
   * How long a job may run before it counts as abandoned (its process died) and is tried again by
   * another process; the rows a job claims are its for as long (seconds).
   */
  jobsExpireSeconds: number;
  /** How often abandoned jobs are looked for (seconds; pg-boss's monitor, done by one process). */
  jobsCheckSeconds: number;
  /** Wait before a failed or abandoned job is tried again (seconds); each next retry waits about twice as long. */
  jobsRetrySeconds: number;
  /** Webhooks may call private, loopback and link-local addresses (tests, intranets). */
  webhookAllowPrivate: boolean;
  /** Wait before the first webhook or CDN purge retry (ms); each next retry waits twice as long. */
  webhookRetryBaseMs: number;
  /**
   * A CDN's purge endpoint (`DELIVERY_PURGE_URL`, with `DELIVERY_PURGE_TOKEN` sent as a bearer token):
   * publishes, unpublishes and deletes POST it the cache keys they changed; without it nothing is queued.
   */
  deliveryPurge?: { url: string; token?: string };
  /** API key of a SendGrid-compatible email delivery service; without it that provider is not configured. */
  sendgridApiKey?: string;
  /** Base URL of the SendGrid-compatible v3 API (tests point it at a local fake). */
  sendgridUrl: string;
  /**
   * The public key of SendGrid's Signed Event Webhook (`SENDGRID_WEBHOOK_PUBLIC_KEY`, PEM or base64
   * DER): `POST /hooks/email/sendgrid` takes only event posts signed with it (403 otherwise), and
   * none without it (503).
   */
  sendgridWebhookPublicKey?: string;
  /** Email template test sends allowed per workspace per hour. */
  testSendsPerHour: number;
  campaigns: CampaignConfig;
  /** Address lookup: Google Places when its key is set, else a Nominatim geocoder, else none. */
  places: PlacesConfig;
  /** Test runs (`/fun/testCollection/runTest`) allowed per user per minute. */
  sandboxRateLimit: number;
  /** Shown in the user menu and answered by /__/config.json. */
  appVersion: string;
  /** The spec's generic visualisation GET: its URL and one `Name: value` header. */
  visualisation: { url?: string; header?: string };
  /** Service connections: one OAuth client per provider; no client id = 'Service not configured'. */
  services: Record<ServiceProvider, ServiceProviderConfig>;
  /**
   * Rows an import writes per transaction (50,000; tests make them few). Larger chunks mean fewer
   * statements and commits, a popular profile's count merged once per chunk, and more of a chunk's
   * sorted index entries landing on the same pages: 3,000,000 events into 1,000,000 profiles ran at
   * 27,900 events/s in chunks of 20,000 and 37,800 in chunks of 50,000 (PostgreSQL CPU 129 → 92 s);
   * 150,000 was no faster and held three times the rows.
   */
  importChunkRows: number;
  /** When an events import loads into segments of its own (`customers/segments.ts`); tests make them small. */
  eventSegments: SegmentPolicy;
}

export interface ServiceProviderConfig {
  clientId?: string;
  clientSecret?: string;
  /** Base of the provider's authorization (and, where it keeps them together, token) endpoints. */
  authUrl: string;
  /** Base of the provider's API. */
  apiUrl: string;
  /** Base of a separate advertising API (`X_ADS_API_URL`; X's targeting search lives there). */
  adsApiUrl?: string;
  /** Google Ads API developer token (`GOOGLE_ADS_DEVELOPER_TOKEN`), sent with every Ads API call. */
  developerToken?: string;
}

/** The real providers' endpoints, used unless `{PROVIDER}_AUTH_URL` / `{PROVIDER}_API_URL` say otherwise. */
const SERVICE_DEFAULTS: Record<ServiceProvider, { authUrl: string; apiUrl: string }> = {
  facebook: { authUrl: 'https://www.facebook.com/v3.2', apiUrl: 'https://graph.facebook.com/v3.2' },
  'google-ads': {
    authUrl: 'https://accounts.google.com/o/oauth2',
    apiUrl: 'https://googleads.googleapis.com/v26',
  },
  meetup: { authUrl: 'https://secure.meetup.com/oauth2', apiUrl: 'https://api.meetup.com' },
  eventbrite: { authUrl: 'https://www.eventbrite.com/oauth', apiUrl: 'https://www.eventbriteapi.com/v3' },
  linkedin: { authUrl: 'https://www.linkedin.com/oauth/v2', apiUrl: 'https://api.linkedin.com' },
  x: { authUrl: 'https://api.x.com', apiUrl: 'https://api.x.com' },
};

/** `{PROVIDER}_CLIENT_ID`, `_CLIENT_SECRET`, `_AUTH_URL`, `_API_URL` (PROVIDER upper-cased, `-` as `_`). */
function loadServices(env: NodeJS.ProcessEnv): Record<ServiceProvider, ServiceProviderConfig> {
  const trim = (url: string) => url.replace(/\/+$/, '');
  return Object.fromEntries(
    SERVICE_PROVIDERS.map((provider) => {
      const prefix = provider.toUpperCase().replace(/-/g, '_');
      return [
        provider,
        {
          clientId: env[`${prefix}_CLIENT_ID`] || undefined,
          clientSecret: env[`${prefix}_CLIENT_SECRET`] || undefined,
          authUrl: trim(env[`${prefix}_AUTH_URL`] || SERVICE_DEFAULTS[provider].authUrl),
          apiUrl: trim(env[`${prefix}_API_URL`] || SERVICE_DEFAULTS[provider].apiUrl),
          adsApiUrl: provider === 'x' ? trim(env.X_ADS_API_URL || 'https://ads-api.x.com') : undefined,
          developerToken: provider === 'google-ads' ? env.GOOGLE_ADS_DEVELOPER_TOKEN || undefined : undefined,
        },
      ];
    }),
  ) as Record<ServiceProvider, ServiceProviderConfig>;
}

export interface PlacesConfig {
  googleApiKey?: string;
  /** Base URL of the Places API (New). */
  googleUrl: string;
  /** Base URL of an OpenStreetMap geocoder speaking the Nominatim API. */
  geocoderUrl?: string;
  /** OpenStreetMap-style `{z}/{x}/{y}` tile URL template for the map; none draws a plain grid. */
  tileUrl?: string;
  /** Lookups allowed per workspace per minute. */
  rateLimit: number;
  /** How long lookup answers are reused, ms. */
  cacheTtlMs: number;
}

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** How campaign sends are worked through (README: Campaigns). */
interface CampaignConfig {
  /** SMTP connections each process keeps open while it sends (CAMPAIGN_SMTP_CONNECTIONS). */
  connections: number;
  /** Messages a second each process hands to each provider; 0: as fast as it goes (CAMPAIGN_RATE_*). */
  ratePerSecond: { smtp: number; sendgrid: number };
  /** Recipients per unit of work a process claims (CAMPAIGN_CHUNK_SIZE). */
  chunkSize: number;
  /** How long a claimed chunk stays a process's without it renewing the claim (CAMPAIGN_LEASE_MS). */
  leaseMs: number;
  /** The wait before a recipient the provider deferred is tried again; doubled each time (CAMPAIGN_RETRY_BASE_MS). */
  retryBaseMs: number;
}

const SECRET_FILE = 'marquee-secret';

/** Reads the environment; on first start with no MARQUEE_SECRET it creates one in DATA_DIR and reuses it after. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const port = Number(env.PORT ?? 8080);
  if (env.DATABASE_READ_URL && !env.DATABASE_URL)
    throw new Error('DATABASE_READ_URL names a replica of DATABASE_URL: set DATABASE_URL too');
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    secret: env.MARQUEE_SECRET || readOrCreateSecret(dataDir),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Marquee <no-reply@marquee.local>',
    dnsServers: (env.DNS_SERVERS ?? '')
      .split(',')
      .map((server) => server.trim())
      .filter(Boolean),
    spfInclude: env.MAIL_SPF_INCLUDE?.trim() || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    authRateLimit: Number(env.AUTH_RATE_LIMIT ?? 20),
    ingestRateLimit: Math.max(1, Number(env.INGEST_RATE_LIMIT ?? 600_000) || 600_000),
    sessionDays: Number(env.SESSION_DAYS ?? 30),
    readCacheTtlMs: Math.min(5000, Math.max(0, Number(env.READ_CACHE_TTL_MS ?? 2000) || 0)),
    deliveryCacheBytes: Math.max(0, Number(env.DELIVERY_CACHE_MB ?? 32) || 0) * 1024 * 1024,
    graphql: {
      maxCost: Math.max(1, Number(env.GRAPHQL_MAX_COST ?? DEFAULT_MAX_COST) || DEFAULT_MAX_COST),
      maxDepth: Math.max(1, Number(env.GRAPHQL_MAX_DEPTH ?? DEFAULT_MAX_DEPTH) || DEFAULT_MAX_DEPTH),
    },
    webDir: path.resolve(env.WEB_DIR ?? 'dist/web'),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: /^(1|true|yes)$/i.test(env.S3_FORCE_PATH_STYLE ?? ''),
        }
      : undefined,
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 25 * 1024 * 1024),
    imageMaxPixels: Number(env.IMAGE_MAX_PIXELS ?? 100_000_000),
    googleVisionApiKey: env.GOOGLE_VISION_API_KEY || undefined,
    googleVisionUrl: (env.GOOGLE_VISION_URL ?? 'https://vision.googleapis.com').replace(/\/+$/, ''),
    places: {
      googleApiKey: env.GOOGLE_PLACES_API_KEY || undefined,
      googleUrl: (env.GOOGLE_PLACES_URL ?? 'https://places.googleapis.com').replace(/\/+$/, ''),
      geocoderUrl: env.GEOCODER_URL?.replace(/\/+$/, '') || undefined,
      tileUrl: env.MAP_TILE_URL || undefined,
      rateLimit: Number(env.PLACES_RATE_LIMIT ?? 60),
      cacheTtlMs: Number(env.PLACES_CACHE_TTL_MS ?? 300_000),
    },
    sendgridApiKey: env.SENDGRID_API_KEY || undefined,
    sendgridUrl: (env.SENDGRID_URL ?? 'https://api.sendgrid.com').replace(/\/+$/, ''),
    sendgridWebhookPublicKey: checkedPublicKey(env.SENDGRID_WEBHOOK_PUBLIC_KEY),
    testSendsPerHour: Math.max(0, Number(env.TEST_SEND_RATE_LIMIT ?? 60) || 0),
    campaigns: {
      connections: Math.min(100, Math.max(1, Number(env.CAMPAIGN_SMTP_CONNECTIONS ?? 8) || 8)),
      ratePerSecond: {
        smtp: Math.max(0, Number(env.CAMPAIGN_RATE_SMTP ?? 0) || 0),
        sendgrid: Math.max(0, Number(env.CAMPAIGN_RATE_SENDGRID ?? 100) || 0),
      },
      chunkSize: Math.max(1, Number(env.CAMPAIGN_CHUNK_SIZE ?? 500) || 500),
      leaseMs: Math.max(1000, Number(env.CAMPAIGN_LEASE_MS ?? 60_000) || 60_000),
      retryBaseMs: Math.max(10, Number(env.CAMPAIGN_RETRY_BASE_MS ?? 30_000) || 30_000),
    },
    jobs: !/^(0|false|no)$/i.test(env.JOBS ?? ''),
    jobsPollMs: Math.max(500, Number(env.JOBS_POLL_MS ?? 1000) || 1000),
    jobsExpireSeconds: Math.max(2, Number(env.JOBS_EXPIRE_SECONDS ?? 60) || 60),
    jobsCheckSeconds: Math.max(1, Number(env.JOBS_CHECK_SECONDS ?? 30) || 30),
    jobsRetrySeconds: Math.max(1, Number(env.JOBS_RETRY_SECONDS ?? 10) || 10),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    webhookRetryBaseMs: Math.max(10, Number(env.WEBHOOK_RETRY_BASE_MS ?? 10_000) || 10_000),
    deliveryPurge: env.DELIVERY_PURGE_URL
      ? { url: env.DELIVERY_PURGE_URL, token: env.DELIVERY_PURGE_TOKEN || undefined }
      : undefined,
    services: loadServices(env),
    sandboxRateLimit: Number(env.SANDBOX_RATE_LIMIT ?? 30),
    appVersion: env.APP_VERSION || DEFAULT_APP_VERSION,
    importChunkRows: 50_000,
    eventSegments: { directRows: 100_000, segmentRows: 4_000_000, maxSegments: 16 },
    visualisation: { url: env.VISUALISATION_URL || undefined, header: env.VISUALISATION_HEADER || undefined },
  };
}

/** SENDGRID_WEBHOOK_PUBLIC_KEY, refused at start when it is not an ECDSA public key. */
function checkedPublicKey(value: string | undefined) {
  if (!value?.trim()) return undefined;
  try {
    webhookPublicKey(value);
  } catch (err) {
    throw new Error(`SENDGRID_WEBHOOK_PUBLIC_KEY is not a public key: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return value;
}

/** TRUST_PROXY: empty or `false` trusts no proxy; otherwise a comma-separated list of addresses or CIDRs. */
function parseTrustProxy(value: string | undefined): false | string[] {
  const list = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (list.length === 0 || (list.length === 1 && /^(false|off|0|no)$/i.test(list[0]))) return false;
  return list;
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}
