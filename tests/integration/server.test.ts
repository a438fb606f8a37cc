import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '@server/app';
import { loadConfig } from '@server/config';
import { DatabaseTooNewError, migrateDatabase } from '@server/db/migrate';
import { openTestDatabase } from '../helpers/database';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('migrations', () => {
  it('apply once and are idempotent', async () => {
    const database = await openTestDatabase({ migrate: false });
    try {
      await migrateDatabase(database);
      await migrateDatabase(database);
      await database.db.execute(sql`select id, name, basics from workspaces limit 1`);
    } finally {
      await database.close();
    }
  });

  it('refuse a database that a newer Marquee migrated', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', ${Date.now() + 10 ** 10})`,
      );
      await expect(migrateDatabase(database)).rejects.toBeInstanceOf(DatabaseTooNewError);
      await expect(migrateDatabase(database)).rejects.toThrow(/newer version of Marquee/);
    } finally {
      await database.close();
    }
  });
});

describe('the HTTP application', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz once the database is reachable', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('documents the API in OpenAPI at /api/docs', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/sign-up',
        '/api/v1/auth/sign-in',
        '/api/v1/auth/verify-email',
        '/api/v1/me',
        '/api/v1/workspaces',
        '/api/v1/workspaces/{ws}',
        '/api/v1/workspaces/{ws}/members',
        '/api/v1/workspaces/{ws}/members/invitations',
      ]),
    );
  });

  it('describes the criteria rule tree of audience sizes, not an unknown body', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    // Request bodies use the input form of each registered schema: CriteriaGroupInput, …
    const ref = (id: string) => ({ $ref: `#/components/schemas/${id}Input` });
    const schemas = doc.components.schemas;
    const size =
      doc.paths['/api/v1/workspaces/{ws}/audiences/size'].post.requestBody.content['application/json'];
    expect(size.schema.properties.criteria).toEqual(ref('CriteriaGroup'));
    const group = schemas.CriteriaGroupInput;
    expect(Object.keys(group.properties)).toEqual(['label', 'predicate', 'story', 'children']);
    expect(group.properties.predicate.enum).toEqual(['and', 'or', 'not']);
    expect(group.properties.children.items).toEqual(ref('CriteriaNode'));
    expect(schemas.CriteriaNodeInput.anyOf).toEqual([
      ref('CriteriaGroup'),
      ref('CriteriaAttributeRule'),
      ref('CriteriaAudienceRule'),
      ref('CriteriaEventRule'),
    ]);
    expect(schemas.CriteriaAttributeRuleInput.properties.type.enum).toEqual(['attribute']);
    expect(Object.keys(schemas.CriteriaEventRuleInput.properties)).toEqual(
      expect.arrayContaining(['event', 'lookBackUnit', 'lookBackValue', 'aggregator', 'aggregatorCondition']),
    );
  });

  it("documents every campaign answer, the test send's too", async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const campaign = '/api/v1/workspaces/{ws}/campaigns/{id}';
    for (const [path, method, status] of [
      ['/send', 'post', '202'],
      ['/test-send', 'post', '200'],
      ['/readiness', 'get', '200'],
      ['/preview', 'get', '200'],
      ['/sends', 'get', '200'],
    ]) {
      const answer = doc.paths[`${campaign}${path}`][method].responses[status];
      expect(answer?.content?.['application/json']?.schema, path).toBeDefined();
    }
    const testSend = doc.paths[`${campaign}/test-send`].post.responses['200'].content['application/json'];
    expect(JSON.stringify(testSend.schema)).toMatch(/testSend|TestSendAnswer/);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('serving the web app', () => {
  it('serves index.html for app routes and caches hashed assets for good', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Marquee</title>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const database = await openTestDatabase();
    const app = await buildApp({
      config: { ...loadConfig({ DATA_DIR: webDir, MARQUEE_SECRET: 's' }), webDir },
      db: database.db,
      logger: false,
    });
    try {
      for (const url of ['/', '/assets', '/assets/']) {
        expect((await app.inject({ url })).body, url).toContain('<title>Marquee</title>');
      }
      const page = await app.inject({ url: '/acme/_items/all' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Marquee</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
      const asset = await app.inject({ url: '/assets/app-abc123.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/api/v1/missing' })).statusCode).toBe(404);
      // A build deployed while the server runs is served at once (the open tabs' update notice needs it).
      fs.writeFileSync(path.join(webDir, 'assets', 'app-def456.js'), 'console.log(2)');
      expect((await app.inject({ url: '/assets/app-def456.js' })).body).toBe('console.log(2)');
      expect((await app.inject({ url: '/..%2fpackage.json' })).statusCode).not.toBe(200);
    } finally {
      await app.close();
      await database.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  it('creates a secret in DATA_DIR on first start and reuses it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-secret-'));
    try {
      const first = loadConfig({ DATA_DIR: dataDir }).secret;
      expect(first.length).toBeGreaterThanOrEqual(40);
      expect(loadConfig({ DATA_DIR: dataDir }).secret).toBe(first);
      expect(loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'given' }).secret).toBe('given');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
