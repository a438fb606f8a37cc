import { loadConfig } from '@server/config';
import { createTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

describe('GET /__/config.json and /__/firebase/init.json', () => {
  it('answers the public configuration to anyone: version 1.8.0 by default, no providers', async () => {
    t = await createTestApp();
    for (const url of ['/__/config.json', '/__/firebase/init.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        version: '1.8.0',
        publicUrl: 'http://marquee.test',
        providers: [],
        mapTileUrl: null,
      });
    }
    expect((await t.app.inject({ method: 'GET', url: '/__/nothing.json' })).statusCode).toBe(404);
  });

  it('names configured providers, service connections by their client id, without their secrets', async () => {
    t = await createTestApp({
      appVersion: '2.0.1',
      smtpUrl: 'smtp://user:secret-pass@127.0.0.1:2525',
      sendgridApiKey: 'sendgrid-secret-key',
      services: loadConfig({ DATA_DIR: '/nonexistent', MARQUEE_SECRET: 'x', X_CLIENT_ID: 'x-client' })
        .services,
      googleVisionApiKey: 'vision-secret-key',
      places: {
        googleApiKey: 'places-secret-key',
        googleUrl: 'http://127.0.0.1:9',
        tileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
        rateLimit: 60,
        cacheTtlMs: 1000,
      },
    });
    const res = await t.app.inject({ method: 'GET', url: '/__/config.json' });
    expect(res.json()).toEqual({
      version: '2.0.1',
      publicUrl: 'http://marquee.test',
      providers: ['smtp', 'google-vision', 'google-places', 'sendgrid', 'x'],
      mapTileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
    });
    expect(res.body).not.toMatch(/secret/);
  });
});
