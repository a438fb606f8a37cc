import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SanitizeHtmlAnswer, SanitizeHtmlBody, WorkspaceQuery } from '@shared/media/contract';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { NotHtmlFieldError, sanitizeRichText } from './rich-text';

/** `/fun/sanitizeHtml/` (spec §7): `{schemaType, field, html}` → `{sanitized}`. */
export async function sanitizeRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/sanitizeHtml/',
    {
      schema: {
        tags: ['media'],
        summary: "Sanitises rich-text HTML under the field's allow-list",
        querystring: WorkspaceQuery,
        body: SanitizeHtmlBody,
        response: { 200: SanitizeHtmlAnswer },
      },
      bodyLimit: 4 * 1024 * 1024,
    },
    async (request) => {
      const { schemaType, field, html } = request.body;
      try {
        return {
          sanitized: sanitizeRichText(request.access.model.schema(schemaType), schemaType, field, html, {
            workspaceId: request.access.workspace.id,
            publicUrl: ctx.config.publicUrl,
          }),
        };
      } catch (err) {
        if (err instanceof NotHtmlFieldError) throw badRequest(err.message);
        throw err;
      }
    },
  );
}
