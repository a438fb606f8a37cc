import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ImageResizeQuery, SanityQuery, SanityResult, StorageName } from '@shared/media/contract';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { FILE_NOT_FOUND } from '../files/service';
import { thumbnailOf } from './resize';
import { analyseImage } from './sanity';
import { findItemUsages } from './usages';

/** A storage name that cannot exist is answered like one that does not. */
function checkedStorageName(id: string): string {
  if (!StorageName.safeParse(id).success) throw notFound(FILE_NOT_FOUND);
  return id;
}

/** `/fun/imageResize/` and `/fun/sanity/` (spec §7), under the function service's workspace scope. */
export async function mediaRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['media'];

  app.get(
    '/imageResize/',
    {
      schema: {
        tags,
        summary:
          'A thumbnail of an uploaded image: w and/or h between 16 and 2400, WebP or AVIF when accepted',
        querystring: ImageResizeQuery,
      },
    },
    async (request, reply) => {
      const query = request.query;
      const thumbnail = await thumbnailOf(ctx, request.access, {
        storageName: checkedStorageName(query.id),
        w: query.w,
        h: query.h,
        accept: request.headers.accept,
      });
      reply
        .header('content-type', thumbnail.contentType)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('vary', 'Accept')
        .header('etag', thumbnail.etag)
        .header('x-marquee-cache', thumbnail.cache);
      if (request.headers['if-none-match'] === thumbnail.etag) {
        if (!Buffer.isBuffer(thumbnail.body)) thumbnail.body.destroy();
        return reply.code(304).send();
      }
      reply.header('content-length', String(thumbnail.size));
      return reply.send(thumbnail.body);
    },
  );

  app.get(
    '/sanity/',
    {
      schema: {
        tags,
        summary: 'Image analysis: matching images and safe-search ratings; also stored in the file record',
        querystring: SanityQuery,
        response: { 200: SanityResult },
      },
    },
    async (request) =>
      analyseImage(ctx, request.access, checkedStorageName(request.query.id), {
        findUsages: (workspaceId, storageNames) => findItemUsages(ctx, workspaceId, storageNames),
      }),
  );
}
