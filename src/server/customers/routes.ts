import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { ImportAnswer, LiveEventsAnswer, LiveEventsBody } from '@shared/api/customers';
import { ImportMapping, PreviewAnswer } from '@shared/api/customer-imports';
import { ErrorBody } from '@shared/api/errors';
import { z } from 'zod';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { malformedMultipart } from '../http/multipart';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { importCustomerData, previewCustomerData, type ImportSource } from './import-customer-data';
import { parseMapping } from './import-mapping';
import type { ImportFormat } from './read-records';
import type { ImportKind } from './customer-rows';
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

/** An import's `mapping`, checked: 400 naming what does not fit. */
function checkMapping(value: unknown) {
  const parsed = ImportMapping.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(
    'invalid_request',
    `${['mapping', ...issue.path.map(String)].join('.')}: ${issue.message}`,
  );
}

/**
 * The body of an import as a stream: the raw CSV or NDJSON body, or the one file of a multipart form;
 * with its `mapping` (a form field before the file, or the query parameter).
 */
async function importSource(request: FastifyRequest): Promise<ImportSource & { mapping?: ImportMapping }> {
  const query = request.query as { mapping?: string } | undefined;
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
    const field = file.fields.mapping;
    const fieldText =
      field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
    return {
      stream: file.file,
      format,
      fileName: file.filename,
      bytesTotal: Number.isFinite(length) ? length : null,
      mapping: parseMapping(fieldText ?? query?.mapping, checkMapping),
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
    mapping: parseMapping(query?.mapping, checkMapping),
  };
}

const MappingQuery = z.object({
  mapping: z
    .string()
    .max(200_000)
    .optional()
    .describe(
      'The mapping as JSON, for a raw CSV or NDJSON body (a multipart form sends it as its `mapping` field, before the file)',
    ),
});

const MAPPING_HELP =
  ' Columns map to attributes (or event properties) by the `mapping`: `{"columns": {"First Name": {"key": "firstName", "type": "string"}, "notes": "skip"}, "events": {"signup": {"properties": [{"name": "plan", "type": "string"}]}}}`. A column to a key no attribute has, with a `type`, creates that attribute first (an item of customer-profile-attribute, with its history); `events` creates behavioral events or gives existing ones more properties. A column the mapping leaves out goes to the key it spells. The preview (`…/import/preview`, same body) answers a proposed `mapping` to send as it is.';

const EVENTS_ONCE =
  'Each event is stored once: an event with the id of one stored for the profile, or without an id the same profile, event, at and properties as one stored, is skipped, and counts only once. ';
const IMPORT_ANSWER =
  'The whole file is read and written before the answer: 201 with the finished batch (done, or failed with why), its errors naming the lines that did not fit.';

/** `…/import/preview`: the same body as the import, read in part, answering the proposed mapping. */
function previewRoute(scope: FastifyInstance, ctx: AppContext, path: string, kind: ImportKind) {
  scope.withTypeProvider<ZodTypeProvider>().post(
    `/${path}/preview`,
    {
      schema: {
        tags: ['customers'],
        summary: kind === 'profiles' ? 'Preview a profile import' : 'Preview an event import',
        description:
          'The same body as the import. Reads its first 1,000 rows, then stops, and writes nothing: each column matched to an existing attribute (or event property) by key or label, or proposed as a new one with the type its values suggest (number, string, boolean, date, array), the key it gets and why when it must differ from the column; for events, the events read and the properties they lack. `mapping` is the proposal, to send with the import as it is or changed.',
        consumes: ['text/csv', 'application/x-ndjson', 'multipart/form-data'],
        params: WorkspaceParams,
        response: { 200: PreviewAnswer, 400: ErrorBody, 403: ErrorBody, 415: ErrorBody },
      },
    },
    async (request) => {
      customers.requireImporter(request.access);
      const source = await importSource(request);
      return previewCustomerData(ctx, request.access, kind, source);
    },
  );
}

/** `/api/v1/workspaces/{ws}/profiles/import` and `…/customer-events…`, under the workspace scope: customer data imports and tracking. */
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
                ? 'text/csv (a header with an `id` column, or one mapped to `id`, and attribute keys), application/x-ndjson (`{"id","attributes":{…}}`) or a multipart file. Re-importing an id updates it; an empty cell leaves a value as it was. ' +
                  IMPORT_ANSWER +
                  MAPPING_HELP
                : 'text/csv (a header with `profileId`, `event` and `at` columns, or columns mapped to them, property keys, and an `id` column for the source\'s own event ids), application/x-ndjson (`{"profileId","event","at","properties":{…},"id"}`) or a multipart file. ' +
                  EVENTS_ONCE +
                  IMPORT_ANSWER +
                  MAPPING_HELP,
            consumes: ['text/csv', 'application/x-ndjson', 'multipart/form-data'],
            params,
            querystring: MappingQuery,
            response: { 201: ImportAnswer, 400: ErrorBody, 403: ErrorBody, 415: ErrorBody },
          },
        },
        async (request, reply) => {
          const { mapping, ...source } = await importSource(request);
          const batch = await importCustomerData(ctx, request.access, kind, source, mapping);
          return reply.code(201).send({ batch });
        },
      );

      previewRoute(scope, ctx, path, kind);
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
  });
}
