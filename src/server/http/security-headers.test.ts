import Fastify from 'fastify';
import { registerSecurityHeaders, securityHeadersOf } from './security-headers';

const options = {
  contentSecurityPolicy: {
    directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'https://*.tile.test'] },
  },
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' as const },
  hsts: false,
};

describe('security headers', () => {
  it('are the headers helmet sets for the options', () => {
    const headers = securityHeadersOf(options);
    expect(headers['content-security-policy']).toContain("img-src 'self' https://*.tile.test");
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers).not.toHaveProperty('strict-transport-security');
  });

  it('refuse options helmet refuses, when the app is built', () => {
    expect(() =>
      securityHeadersOf({ contentSecurityPolicy: { directives: { defaultSrc: ["'self';"] } } }),
    ).toThrow();
  });

  it('go with every answer, errors included, and a route may override one', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/ok', async (_request, reply) => reply.header('x-frame-options', 'DENY').send({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    const ok = await app.inject({ url: '/ok' });
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.headers['x-frame-options']).toBe('DENY');
    for (const url of ['/fails', '/missing']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });
});
