import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { ErrorBody } from '@shared/api/errors';
import { FileRecord, FocusBody, StorageName } from '@shared/media/contract';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as files from './service';
import { receiveUpload } from './upload';

const FileParams = WorkspaceParams.extend({ storageName: StorageName });

/** `/api/v1/workspaces/{ws}/files…`, under the workspace scope: upload, read, record and focal point. Multipart is parsed only here. */
export async function fileRoutes(instance: FastifyInstance, ctx: AppContext) {
  await instance.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ctx.config.uploadMaxBytes, files: 1 } });
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['files'];

    app.post(
      '/files',
      {
        schema: {
          tags,
          summary: 'Upload one image (multipart/form-data, one file field)',
          description:
            'The type is sniffed from the bytes; only JPEG, PNG, GIF, WebP, AVIF and TIFF images are kept. ' +
            'Too many bytes or pixels answer 413, other types 415, damaged images 422.',
          consumes: ['multipart/form-data'],
          params: WorkspaceParams,
          response: { 201: FileRecord, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
        },
      },
      async (request, reply) => {
        const { access } = request;
        files.requireUploader(access);
        const upload = await receiveUpload(request, {
          tempDir: files.uploadTempDir(ctx),
          maxBytes: ctx.config.uploadMaxBytes,
        });
        return reply.code(201).send(await files.storeUpload(ctx, access, upload));
      },
    );

    app.get(
      '/files/:storageName',
      {
        schema: {
          tags,
          summary: "A file's content (the record's publicUrl); members only",
          params: FileParams,
        },
      },
      async (request, reply) => {
        const row = await files.requireFile(ctx, request.access.workspace.id, request.params.storageName);
        const etag = `"${row.md5Hash}"`;
        reply
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('etag', etag)
          .header('content-type', row.contentType)
          .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(row.name)}`);
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        const object = await files.openFile(ctx, row);
        reply.header('content-length', String(object.size));
        return reply.send(object.body);
      },
    );

    app.get(
      '/files/:storageName/record',
      { schema: { tags, summary: "A file's record", params: FileParams, response: { 200: FileRecord } } },
      async (request) =>
        files.toFileRecord(
          await files.requireFile(ctx, request.access.workspace.id, request.params.storageName),
        ),
    );

    app.patch(
      '/files/:storageName',
      {
        schema: {
          tags,
          summary: 'Set the focal point',
          params: FileParams,
          body: FocusBody,
          response: { 200: FileRecord },
        },
      },
      async (request) => files.setFocus(ctx, request.access, request.params.storageName, request.body),
    );
  });
}
