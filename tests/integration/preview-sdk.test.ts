import zlib from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the live preview script', () => {
  it('is served to any origin, cached by ETag, small, without eval', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sdk/preview.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(zlib.gzipSync(res.body, { level: 9 }).length).toBeLessThan(3 * 1024);
    expect(res.body).not.toMatch(/\beval\(|new Function|setTimeout\(['"`]/);
    expect(res.body).toContain('window.marqueePreview');
    const again = await t.app.inject({
      method: 'GET',
      url: '/sdk/preview.js',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('lets the app frame a website on another origin in the preview pane', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toMatch(/frame-src 'self' https: http:/);
  });
});
