import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { formatSize } from '@shared/text/size';
import { AppError, badRequest } from '../http/errors';
import { refuseUnsafeText } from '../http/input-guard';
import { malformedMultipart } from '../http/multipart';

/** An upload received into a temporary file, with what was learnt while streaming it. */
export interface ReceivedUpload {
  tempPath: string;
  name: string;
  size: number;
  /** Base64 MD5, the form S3 and the spec's md5Hash use. */
  md5Hash: string;
}

const tooLarge = (maxBytes: number) =>
  new AppError('too_large', `The file is too large. The limit is ${formatSize(maxBytes)}.`);

/** Slack for the multipart envelope around the file when comparing Content-Length with the limit. */
const ENVELOPE_BYTES = 64 * 1024;

/** A file name safe to store and show: no path, no control characters, at most 255 characters. */
function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return clean || 'upload';
}

/**
 * Streams the request's one file to `tempDir`, hashing and counting on the way, so memory use does not
 * depend on the file's size. Past `maxBytes` the upload stops with 413.
 */
export async function receiveUpload(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number },
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw badRequest('Send the file as multipart/form-data with one file field');
  }
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > options.maxBytes + ENVELOPE_BYTES) throw tooLarge(options.maxBytes);

  const part = await request
    .file({
      limits: { fileSize: options.maxBytes, files: 1, fields: 10, parts: 20 },
      throwFileSizeLimit: false,
    })
    .catch((err: unknown) => {
      throw malformedMultipart(err);
    });
  if (!part) throw badRequest('The request holds no file');
  // Text fields sent before the file are the only ones read; they meet the same rule as any other input.
  refuseUnsafeText(
    Object.fromEntries(
      Object.entries(part.fields).flatMap(([name, field]) =>
        [field]
          .flat()
          .flatMap((value) => (value && value.type === 'field' ? [[name, value.value] as const] : [])),
      ),
    ),
  );

  await fs.promises.mkdir(options.tempDir, { recursive: true });
  const tempPath = path.join(options.tempDir, `${crypto.randomBytes(12).toString('hex')}.upload`);
  const md5 = crypto.createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      md5.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, meter, fs.createWriteStream(tempPath, { flags: 'wx' }));
  } catch (err) {
    await fs.promises.rm(tempPath, { force: true });
    if ((err as { statusCode?: number }).statusCode === 413) throw tooLarge(options.maxBytes);
    throw malformedMultipart(err);
  }
  if (part.file.truncated || size > options.maxBytes) {
    await fs.promises.rm(tempPath, { force: true });
    throw tooLarge(options.maxBytes);
  }
  if (size === 0) {
    await fs.promises.rm(tempPath, { force: true });
    throw badRequest('The file is empty');
  }
  return { tempPath, name: cleanFileName(part.filename), size, md5Hash: md5.digest('base64') };
}
