import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';

/**
 * `GET url`: a browser script for pages of any origin, read once from the first of `files` that exists
 * (beside its module when run from the sources, under src/ from the bundled server), cached by ETag.
 */
export async function browserScriptRoute(app: FastifyInstance, url: string, files: readonly string[]) {
  const file = files.find((candidate) => fs.existsSync(candidate));
  if (!file) throw new Error(`The browser script ${url} is missing`);
  const body = fs.readFileSync(file, 'utf8');
  const etag = `"${crypto.hash('sha256', body, 'base64url').slice(0, 22)}"`;
  app.get(url, { schema: { hide: true } }, async (request, reply) => {
    reply.headers({
      etag,
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(body);
  });
}
