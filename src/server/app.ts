import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import type { Config } from './config';
import type { Db } from './db/client';
import { enableReadCaches } from './db/read-cache';
import { enableItemCache } from './items/cache';
import { deliveryCacheOf } from './delivery/cache';
import { imageChecksOf } from './media/image-checks';
import { listenForChanges, subscribeToChanges } from './journal/changes';
import { queueDeliveryPurges } from './journal/purges';
import { watchReplicaLag } from './journal/replica-lag';
import type { AppContext } from './context';
import { createMailer, type Mailer } from './mail/mailer';
import { registerErrorHandling } from './http/errors';
import { withRedaction } from './http/log-redaction';
import { BackgroundWork } from './lib/background';
import { registerOriginCheck } from './http/origin-check';
import { registerInputGuards } from './http/input-guard';
import { zodValidatorCompiler } from './http/validation';
import { registerSecurityHeaders } from './http/security-headers';
import { depthSafe } from './http/json-output';
import { registerAuthentication } from './auth/plugin';
import { authRoutes } from './auth/routes';
import { twoFactorRoutes } from './auth/two-factor-routes';
import { passkeyRoutes } from './auth/passkey-routes';
import { workspaceTwoFactorRoutes } from './workspaces/two-factor-routes';
import { refusePasswordWhereEnforced } from './sso/service';
import { ssoSettingsRoutes, ssoSignInRoutes } from './sso/routes';
import { scimRoutes, scimTokenRoutes } from './sso/scim-routes';
import { bindProvisionedAccount } from './sso/scim-service';
import { SCIM_PREFIX } from '@shared/api/scim';
import { workspaceRoutes, workspaceSettingsRoutes } from './workspaces/routes';
import { funWorkspaceScope, workspaceScope } from './workspaces/workspace-scope';
import { memberRoutes } from './workspaces/members-routes';
import { joinInvitedWorkspaces } from './workspaces/members-service';
import { eventRoutes } from './events/routes';
import { fileRoutes } from './files/routes';
import { mediaRoutes } from './media/routes';
import { sanitizeRoutes } from './sanitize/routes';
import { itemFunRoutes, itemRoutes } from './items/routes';
import { historyRoutes } from './history/routes';
import { localeSettingsCacheOf } from './delivery/locale-settings';
import { commentRoutes } from './comments/routes';
import { approvalRoutes } from './approvals/routes';
import { publishingFunRoutes, publishingRoutes } from './publishing/routes';
import { geohashFunRoutes, placesFunRoutes } from './places/routes';
import { batchRoutes } from './batches/routes';
import { customerRoutes } from './customers/routes';
import { markProtectedAttributeOnSave } from './customers/definitions';
import { profileRoutes } from './customers/profiles-routes';
import { suppressionRoutes } from './customers/suppression-routes';
import { audienceRoutes } from './audiences/routes';
import { emailFunRoutes, emailImageRoutes, emailRoutes } from './email/routes';
import { apiKeyRoutes } from './api-keys/routes';
import { ingestRoutes, sdkRoutes, undeclaredRoutes, writeKeyRoutes } from './ingest/routes';
import { previewSdkRoutes } from './preview/sdk-routes';
import { ingestCacheOf } from './ingest/cache';
import { auditRoutes } from './audit/routes';
import { emailHookRoutes, emailPublicRoutes } from './campaigns/public-routes';
import { DELIVERY_PREFIX, deliveryRoutes } from './delivery/routes';
import { webhookRoutes } from './webhooks/routes';
import { senderRoutes } from './senders/routes';
import { campaignRoutes } from './campaigns/routes';
import { journeyRoutes } from './journeys/routes';
import { closeTransports } from './campaigns/engine';
import { scheduleRoutes } from './schedules/routes';
import { releaseRoutes } from './releases/routes';
import { liveRoutes } from './live/routes';
import { contentModelRoutes } from './model/routes';
import { previewRoutes } from './preview/routes';
import { startWorker } from './jobs/worker';
import { installJobQueues } from './queue/queue';
import { JOB_QUEUES } from './queue/queues';
import { serviceCallbackRoutes, servicesFunRoutes } from './services/routes';
import { sandboxFunRoutes } from './sandbox/routes';
import { publicConfigRoutes } from './public-config/routes';
import { statsRoutes } from './stats/routes';
import type { ItemSaveHook } from './items/save-hooks';
import { checkServiceConnectionsOnSave } from './services/check';
import { addressGeohashesOnSave } from './places/save-hook';
import { sanitizeRichTextOnSave } from './sanitize/rich-text';
import { richTextReader } from './sanitize/rich-text-reader';
import { prepareEmailFieldsOnSave } from './email/sanitize';
import { checkAudienceCriteriaOnSave } from './audiences/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work under way after answers (tests wait for it with `app.background.idle()`). */
    background: BackgroundWork;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** A read replica of `db` (DATABASE_READ_URL); without it, reads go to `db`. */
  readDb?: Db;
  mailer?: Mailer;
  logger?: boolean | object;
  /** Told of every route as it is registered (tests enumerate the routes to fuzz them all). */
  onRoute?: (route: RouteOptions) => void;
}

const API_PREFIXES = [
  '/api/',
  '/fun/',
  '/delivery/',
  '/ingest/',
  '/sdk/',
  '/healthz',
  '/__/',
  '/u/',
  '/t/',
  '/hooks/',
  '/scim/',
];

/** Turns the caches on and registers them for the journal's change notices (journal/changes.ts). */
function subscribeCaches(db: Db, readDb: Db, config: Config) {
  subscribeToChanges(db, 'read', enableReadCaches(db, config.readCacheTtlMs));
  if (config.readCacheTtlMs > 0) subscribeToChanges(db, 'items', enableItemCache(db));
  subscribeToChanges(db, 'delivery', deliveryCacheOf(db, config.deliveryCacheBytes));
  subscribeToChanges(db, 'delivery-locales', localeSettingsCacheOf(db));
  subscribeToChanges(db, 'image-checks', imageChecksOf(db));
  subscribeToChanges(db, 'ingest', ingestCacheOf(db));
  // Published copies come from the replica: the delivery cache keeps only what it had caught up for.
  if (readDb !== db) deliveryCacheOf(db).replica = watchReplicaLag(db, readDb);
}

/**
 * The field types that need the server on save, in the order every item save runs them: the sealed
 * tokens are checked before anything else reads the data, rich text is sanitised after the geohashes
 * are set, and criteria are checked on the data as it will be stored.
 */
const itemSaveHooks = (): ItemSaveHook[] => [
  checkServiceConnectionsOnSave,
  addressGeohashesOnSave,
  sanitizeRichTextOnSave,
  prepareEmailFieldsOnSave,
  checkAudienceCriteriaOnSave,
  markProtectedAttributeOnSave,
];

/** Builds the whole HTTP application around an open, migrated database. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db, readDb = db } = options;
  subscribeCaches(db, readDb, config);
  const app = Fastify({
    logger: withRedaction(options.logger ?? { level: config.logLevel }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Slugs and names in paths may be longer than the router's default 100 characters; routes bound them.
    routerOptions: { maxParamLength: 500 },
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Every process enqueues (webhook deliveries, schedules), whether it runs jobs or not; it stops
  // sending last (onClose hooks run last first), once the work that may enqueue has ended.
  const jobQueues = await installJobQueues(db, JOB_QUEUES, (err) =>
    app.log.error({ err }, 'job queue failed'),
  );
  app.addHook('onClose', () => jobQueues.stop());
  const ctx = createContext(app, options);
  app.decorate('background', ctx.background);
  app.addHook('onClose', () => ctx.background.idle());
  const stopListening = await listenForChanges(db);
  app.addHook('onClose', () => stopListening());
  if (config.deliveryPurge) {
    const stopPurging = queueDeliveryPurges(db);
    app.addHook('onClose', async () => stopPurging());
  }

  await registerHttpBasics(app, config);
  await registerApiDocs(app);
  registerOriginCheck(app, config.publicUrl);
  registerAuthentication(app, ctx);
  registerHealthCheck(app, db);
  await registerRoutes(app, ctx);
  await serveWebApp(app, config.webDir);

  if (config.jobs) {
    const worker = await startWorker(ctx);
    app.addHook('onClose', () => worker.stop());
    app.addHook('onClose', async () => closeTransports(ctx));
  }
  return app;
}

/** What every service gets, with the hooks other concepts register with items and auth. */
function createContext(app: FastifyInstance, options: AppOptions): AppContext {
  const { config, db, readDb = db } = options;
  return {
    db,
    readDb,
    config,
    log: app.log,
    background: new BackgroundWork(app.log),
    itemSaveHooks: itemSaveHooks(),
    itemFieldReaders: { 'rich-text': richTextReader },
    // A verified address joins the workspaces that invited it, and is bound to the users provisioned for it.
    accountVerifiedHooks: [joinInvitedWorkspaces, bindProvisionedAccount],
    // An address whose workspace enforces single sign-on signs in at its provider only.
    passwordSignInGuards: [refusePasswordWhereEnforced],
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: app.log,
      }),
  };
}

/** zod validation and serialisation, the error model, input guards, cookies, security headers and rate limits. */
async function registerHttpBasics(app: FastifyInstance, config: Config) {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(depthSafe(serializerCompiler));
  registerErrorHandling(app);
  registerInputGuards(app);

  await app.register(cookie);
  registerSecurityHeaders(
    app,
    {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...tileSources(config.places.tileUrl)],
          connectSrc: ["'self'"],
          // The preview pane frames the workspace's own website, on whatever origins it lists.
          frameSrc: ["'self'", 'https:', 'http:'],
          workerSrc: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // The service auth pop-up passes through the provider's origin and must keep its opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      hsts: false,
    },
    `${DELIVERY_PREFIX}/`,
  );
  await app.register(rateLimit, { global: false });
}

/** The OpenAPI document, generated from the routes' zod schemas, and its explorer at /api/docs. */
async function registerApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Marquee API',
        version: '1.0.0',
        description: 'Workspaces, accounts and content of Marquee',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'marquee_session' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Delivery API: a workspace API key, mq_…',
          },
          writeKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Ingestion API: a workspace write key, mqw_… (or ?writeKey=)',
          },
          scimToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'SCIM 2.0 provisioning: a workspace SCIM token, mqscim_…',
          },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
      tags: [
        {
          name: 'delivery',
          description:
            'Read-only published content for websites and apps at /delivery/v1/{ws}/{stage}/…, with workspace API keys; with ?preview=draft and a preview token (mqp_…), the drafts in the same shape',
        },
        {
          name: 'preview',
          description:
            "Live preview: the workspace's preview origins, preview tokens that read drafts through the delivery API, renders of a form's unsaved values",
        },
        {
          name: 'ingest',
          description:
            'Events from websites and apps at /ingest/v1/track|identify|batch, with workspace write keys; the browser script is /sdk/marquee.js',
        },
        {
          name: 'scim',
          description:
            'SCIM 2.0 provisioning (RFC 7643/7644) at /scim/v2/{ws}/Users and /Groups, with workspace SCIM tokens',
        },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}

/** `GET /healthz`: 200 while the database answers, 503 otherwise (the load balancer's check). */
function registerHealthCheck(app: FastifyInstance, db: Db) {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { ok: true };
    } catch (err) {
      app.log.error({ err }, 'health check failed');
      return reply.code(503).send({ ok: false });
    }
  });
}

/** The REST API, the function service, the delivery API and the public configuration. */
async function registerRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(
    async (api) => {
      // Before any membership exists: accounts, the caller's workspaces and a new one, analytics events.
      await authRoutes(api, ctx);
      await twoFactorRoutes(api, ctx);
      await passkeyRoutes(api, ctx);
      await ssoSignInRoutes(api, ctx);
      await workspaceRoutes(api, ctx);
      await eventRoutes(api, ctx);
      // Everything about one workspace, for its active members only.
      await api.register(
        workspaceScope(ctx, [
          workspaceSettingsRoutes,
          workspaceTwoFactorRoutes,
          memberRoutes,
          ssoSettingsRoutes,
          scimTokenRoutes,
          fileRoutes,
          itemRoutes,
          historyRoutes,
          commentRoutes,
          approvalRoutes,
          publishingRoutes,
          batchRoutes,
          customerRoutes,
          profileRoutes,
          suppressionRoutes,
          audienceRoutes,
          emailRoutes,
          apiKeyRoutes,
          writeKeyRoutes,
          undeclaredRoutes,
          auditRoutes,
          webhookRoutes,
          senderRoutes,
          campaignRoutes,
          journeyRoutes,
          scheduleRoutes,
          releaseRoutes,
          statsRoutes,
          liveRoutes,
          contentModelRoutes,
          previewRoutes,
        ]),
        { prefix: '/workspaces/:ws' },
      );
    },
    { prefix: '/api/v1' },
  );

  // Spec §7 function service: bearer token and the workspace in __marquee_workspace, resolved once.
  await app.register(
    funWorkspaceScope(ctx, [
      itemFunRoutes,
      publishingFunRoutes,
      emailFunRoutes,
      mediaRoutes,
      sanitizeRoutes,
      placesFunRoutes,
      servicesFunRoutes,
      sandboxFunRoutes,
    ]),
    { prefix: '/fun' },
  );
  // Function service routes without __marquee_workspace: signed email images, geohash neighbours and the
  // OAuth redirect (its workspace is sealed in the state cookie).
  await app.register(
    async (fun) => {
      await emailImageRoutes(fun, ctx);
      await geohashFunRoutes(fun);
      await serviceCallbackRoutes(fun, ctx);
    },
    { prefix: '/fun' },
  );
  // DESIGN §5: read-only published content for websites and apps, with workspace API keys.
  await app.register(async (deliveryApi) => deliveryRoutes(deliveryApi, ctx), { prefix: DELIVERY_PREFIX });
  // Events from websites and apps with workspace write keys, and the browser script that sends them.
  await app.register(async (ingestApi) => ingestRoutes(ingestApi, ctx), { prefix: '/ingest/v1' });
  await sdkRoutes(app);
  // SCIM 2.0 provisioning by the workspace's identity provider, with workspace SCIM tokens.
  await app.register(async (scimApi) => scimRoutes(scimApi, ctx), { prefix: SCIM_PREFIX });
  // The script a site's page includes to show the editor's unsaved draft in the preview pane.
  await previewSdkRoutes(app);
  // What a recipient's mail client and the email provider call: unsubscribe, opens, clicks, bounces.
  await app.register(async (scope) => emailPublicRoutes(scope, ctx));
  await app.register(async (scope) => emailHookRoutes(scope, ctx));
  // Public runtime configuration.
  await publicConfigRoutes(app, ctx);
}

/** The origin of MAP_TILE_URL for the CSP, with a `{s}` subdomain as a wildcard. */
function tileSources(tileUrl: string | undefined): string[] {
  const origin = tileUrl && /^https?:\/\/[^/?#]+/.exec(tileUrl)?.[0];
  return origin ? [origin.replace(/\{s\}/g, '*')] : [];
}

/**
 * Serves the built web app with hashed assets cached for good and every other page answered by index.html.
 * Files are looked up on each request (wildcard), so a new build deployed into WEB_DIR while the server
 * runs is served at once and the open tabs' service workers find it (the update notice).
 */
async function serveWebApp(app: FastifyInstance, webDir: string) {
  const indexFile = path.join(webDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      // Only file names are looked up; `/`, folders and app routes fall through to index.html below.
      allowedPath: (pathName) => path.extname(pathName) !== '',
      index: false,
      cacheControl: false,
      setHeaders(reply, filePath) {
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));
    if (isApi || request.method !== 'GET' || !hasWeb) {
      return reply
        .code(404)
        .send({ error: { code: 'not_found', message: `No route ${request.method} ${url}` } });
    }
    if (path.extname(url) && !url.endsWith('.html')) {
      return reply.code(404).send({ error: { code: 'not_found', message: `No file ${url}` } });
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
