import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import type { WorkspaceAccess } from '../workspaces/access';
import {
  chooseOutputFormat,
  CONTENT_TYPE_OF_EXTENSION,
  DEFAULT_QUALITY,
  OUTPUT_CONTENT_TYPES,
  resizeImage,
  type OutputFormat,
  type ResizeOptions,
} from '../files/images';
import { FILE_NOT_FOUND, openFile, requireFile, storageOf } from '../files/service';
import { resizedKey, uploadKey } from '../files/storage';
import { notFound } from '../http/errors';

export interface Thumbnail {
  body: Readable | Buffer;
  size: number;
  contentType: string;
  /** `hit`: read from the store; `miss`: made by this request; `shared`: made by one under way beside it. */
  cache: 'hit' | 'miss' | 'shared';
  etag: string;
  /** Whether the Accept header chose its encoding (answers then vary by it). */
  byAccept: boolean;
}

/** Cold thumbnails being made right now, so simultaneous requests for one share the work. */
const inFlight = new Map<string, Promise<Buffer>>();

/**
 * The cache name of a variant, e.g. `w400.webp` or `w640h360-cover-q60.jpeg`. What makes no difference
 * to the pixels is left out, so it shares the variant it equals: a fit without both sides, PNG's
 * quality, a quality that is the format's default.
 */
export function variantName(options: ResizeOptions, format: OutputFormat): string {
  const size = `${options.w ? `w${options.w}` : ''}${options.h ? `h${options.h}` : ''}`;
  const fit = options.w && options.h && options.fit && options.fit !== 'inside' ? `-${options.fit}` : '';
  const isDefaultQuality = options.q === undefined || options.q === DEFAULT_QUALITY[format];
  const quality = DEFAULT_QUALITY[format] === undefined || isDefaultQuality ? '' : `-q${options.q}`;
  return `${size}${fit}${quality}.${format}`;
}

/**
 * Spec §7 imageResize: a thumbnail fitting inside w × h in the format asked for, else WebP or AVIF when
 * accepted, made once with sharp and kept beside the file in the assets store, so every repeat is a read.
 * Signed image links also choose its fit and quality.
 */
export async function thumbnailOf(
  ctx: AppContext,
  access: WorkspaceAccess,
  request: ResizeOptions & { storageName: string; accept?: string; format?: OutputFormat },
): Promise<Thumbnail> {
  const workspaceId = access.workspace.id;
  // The storage name's extension is the sniffed type, and a stored file never changes: the cache can
  // be read before (and without) the file record, since its key lies inside the caller's workspace.
  const format = request.format ?? chooseOutputFormat(request.accept, originalTypeOf(request.storageName));
  const variant = variantName(request, format);
  const key = resizedKey(workspaceId, request.storageName, variant);
  const contentType = OUTPUT_CONTENT_TYPES[format];
  const etag = `"${request.storageName}-${variant}"`;
  const byAccept = request.format === undefined;
  const storage = storageOf(ctx);

  // One being made is joined, also one that started while the store was asked.
  let making = inFlight.get(key);
  if (!making) {
    const stored = await storage.get(key);
    if (stored) return { body: stored.body, size: stored.size, contentType, cache: 'hit', etag, byAccept };
    making = inFlight.get(key);
  }
  const cache = making ? 'shared' : 'miss';
  if (!making) {
    making = (async () => {
      const row = await requireFile(ctx, workspaceId, request.storageName);
      const source = await openFile(ctx, row);
      const buffer = await resizeImage(source.body, request, format, ctx.config.imageMaxPixels);
      // The store writes atomically (a rename on disk, one PUT in a bucket): a reader never sees half.
      await storage.putBuffer(key, buffer, contentType);
      return buffer;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, making);
  }
  const buffer = await making;
  return { body: buffer, size: buffer.length, contentType, cache, etag, byAccept };
}

const originalTypeOf = (storageName: string) =>
  CONTENT_TYPE_OF_EXTENSION[storageName.split('.').pop() ?? ''] ?? 'image/png';

/** The file as uploaded, read from the store without its record (the caller checked that it exists). */
export async function originalOf(
  ctx: AppContext,
  workspaceId: string,
  storageName: string,
): Promise<Thumbnail> {
  const stored = await storageOf(ctx).get(uploadKey(workspaceId, storageName));
  if (!stored) throw notFound(FILE_NOT_FOUND);
  return {
    body: stored.body,
    size: stored.size,
    contentType: originalTypeOf(storageName),
    cache: 'hit',
    etag: `"${storageName}"`,
    byAccept: false,
  };
}
