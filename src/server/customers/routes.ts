import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import {
  ImportAnswer,
  LiveEventsAnswer,
  LiveEventsBody,
  ProfileDetail,
  ProfileId,
  ProfilePage,
  ProfilesQuery,
} from '@shared/api/customers';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { malformedMultipart } from '../http/multipart';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { importCustomerData, type ImportSource } from './import-customer-data';
import type { ImportFormat } from './read-records';
import * as customers from './service';

const formatOf = (contentType: string | undefined, fileName?: string): ImportFormat | undefined => {
  if (contentType?.startsWith('text/csv') || fileName?.toLowerCase().endsWith('.csv')) return 'csv';
  if (contentType?.startsWith('application/x-ndjson') || /\.(nd)?jsonl?$/i.test(fileName ?? ''))
    return 'ndjson';
  return undefined;
};

/** The X-File-Name header (URI-encoded by the web app), at most 200 characters. */
function fileNameOf(header: string | string[] | undefined) {
  if (typeof header !== 'string' || !header) return null;
  try {
    return decodeURIComponent(header).slice(0, 200);
  } catch {
    return header.slice(0, 200);
  }
}

/** The body of an import as a stream: the raw CSV or NDJSON body, or the one file of a multipart form. */
async function importSource(request: FastifyRequest): Promise<ImportSource> {
  const contentType = request.headers['content-type'];
  const length = Number(request.headers['content-length']);
  if (contentType?.startsWith('multipart/form-data')) {
    const file = await request.file().catch((err: unknown) => {
      throw malformedMultipart(err);
    });
    if (!file) throw new AppError('invalid_request', 'file: choose a CSV or NDJSON file');
    const format = formatOf(file.mimetype, file.filename);
    if (!format)
      throw new AppError(
        'unsupported_type',
        'file: only CSV (.csv) and NDJSON (.ndjson) files can be imported',
      );
    return {
      stream: file.file,
      format,
      fileName: file.filename,
      bytesTotal: Number.isFinite(length) ? length : null,
    };
  }
  const format = formatOf(contentType);
  if (!format)
    throw new AppError('unsupported_type', 'Send text/csv, application/x-ndjson or a multipart file');
  return {
    stream: request.body as Readable,
    format,
    fileName: fileNameOf(request.headers['x-file-name']),
    bytesTotal: Number.isFinite(length) ? length : null,
  };
}

const EVENTS_ONCE =
  'Each event is stored once: an event with the id of one stored for the profile, or without an id the same profile, event, at and properties as one stored, is skipped, and counts only once. ';
const IMPORT_ANSWER =
  'The whole file is read and written before the answer: 201 with the finished batch (done, or failed with why), its errors naming the lines that did not fit.';

/** `/api/v1/workspaces/{ws}/profiles…` and `…/customer-events…`, under the workspace scope: customer data imports, tracking and reading. */
export async function customerRoutes(instance: FastifyInstance, ctx: AppContext) {
  await instance.register(async (scope) => {
    // Imports are streamed: these parsers hand the body over unread, so it is never held whole.
    scope.addContentTypeParser(['text/csv', 'application/x-ndjson'], (_request, payload, done) =>
      done(null, payload),
    );
    await scope.register(multipart, { limits: { files: 1, fileSize: Number.MAX_SAFE_INTEGER } });
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['customers'];
    const params = WorkspaceParams;

    for (const [path, kind] of [
      ['profiles/import', 'profiles'],
      ['customer-events/import', 'customer-events'],
    ] as const) {
      app.post(
        `/${path}`,
        {
          schema: {
            tags,
            summary: kind === 'profiles' ? 'Import customer profiles' : 'Import customer events',
            description:
              kind === 'profiles'
                ? 'text/csv (header `id` then attribute keys), application/x-ndjson (`{"id","attributes":{…}}`) or a multipart file. Re-importing an id updates it; an empty cell leaves a value as it was. ' +
                  IMPORT_ANSWER
                : 'text/csv (header `profileId,event,at` then property keys, and an `id` column for the source\'s own event ids), application/x-ndjson (`{"profileId","event","at","properties":{…},"id"}`) or a multipart file. ' +
                  EVENTS_ONCE +
                  IMPORT_ANSWER,
            consumes: ['text/csv', 'application/x-ndjson', 'multipart/form-data'],
            params,
            response: { 201: ImportAnswer, 403: ErrorBody, 415: ErrorBody },
          },
        },
        async (request, reply) => {
          const batch = await importCustomerData(ctx, request.access, kind, await importSource(request));
          return reply.code(201).send({ batch });
        },
      );
    }

    app.post(
      '/customer-events',
      {
        schema: {
          tags,
          summary: 'Track up to 1,000 events (all written or none)',
          description: `${EVENTS_ONCE}Answers 200 once the events are stored, with how many there were.`,
          params,
          body: LiveEventsBody,
          response: { 200: LiveEventsAnswer, 400: ErrorBody, 403: ErrorBody },
        },
      },
      async (request) => customers.trackEvents(ctx, request.access, request.body.events),
    );

    app.get(
      '/profiles',
      {
        schema: {
          tags,
          summary: 'Profiles by id, keyset-paged',
          params,
          querystring: ProfilesQuery,
          response: { 200: ProfilePage },
        },
      },
      async (request) => customers.listProfiles(ctx, request.access, request.query),
    );

    app.get(
      '/profiles/:profileId',
      {
        schema: {
          tags,
          summary: "One profile's attributes and latest events",
          params: WorkspaceParams.extend({ profileId: ProfileId }),
          response: { 200: ProfileDetail },
        },
      },
      async (request) => customers.getProfile(ctx, request.access, request.params.profileId),
    );
  });
}
