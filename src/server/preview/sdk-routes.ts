import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { browserScriptRoute } from '../http/browser-script';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `GET /sdk/preview.js`: the live preview script, for pages of any origin. It holds no workspace data:
 * drafts reach a page only from the editor's window or with a preview token.
 */
export async function previewSdkRoutes(app: FastifyInstance) {
  await browserScriptRoute(app, '/sdk/preview.js', [
    path.join(here, 'sdk/preview.js'),
    path.resolve(here, '../../src/server/preview/sdk/preview.js'),
  ]);
}
