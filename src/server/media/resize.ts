import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import type { WorkspaceAccess } from '../workspaces/access';
import {
  chooseOutputFormat,
  CONTENT_TYPE_OF_EXTENSION,
  OUTPUT_CONTENT_TYPES,
  resizeImage,
  type OutputFormat,
} from '../files/images';
import { openFile, requireFile, storageOf } from '../files/service';
import { resizedKey } from '../files/storage';

export interface Thumbnail {
  body: Readable | Buffer;
  size: number;
  contentType: string;
  /** True when served from the cache (a plain read). */
  cached: boolean;
  etag: string;
}

/** Cold thumbnails being made right now, so simultaneous requests for one share the work. */
const inFlight = new Map<string, Promise<Buffer>>();

/**
 * Spec §7 imageResize: a thumbnail fitting inside w × h in the format asked for, else WebP or AVIF when
 * accepted, made once with sharp and kept beside the file in the assets store, so every repeat is a read.
 */
export async function thumbnailOf(
  ctx: AppContext,
  access: WorkspaceAccess,
  request: { storageName: string; w?: number; h?: number; accept?: string; format?: OutputFormat },
): Promise<Thumbnail> {
  const workspaceId = access.workspace.id;
  // The storage name's extension is the sniffed type, and a stored file never changes: the cache can
  // be read before (and without) the file record, since its key lies inside the caller's workspace.
  const extension = request.storageName.split('.').pop() ?? '';
  const format =
    request.format ?? chooseOutputFormat(request.accept, CONTENT_TYPE_OF_EXTENSION[extension] ?? 'image/png');
  const variant = `${request.w ? `w${request.w}` : ''}${request.h ? `h${request.h}` : ''}.${format}`;
  const key = resizedKey(workspaceId, request.storageName, variant);
  const contentType = OUTPUT_CONTENT_TYPES[format];
  const etag = `"${request.storageName}-${variant}"`;
  const storage = storageOf(ctx);

  const stored = await storage.get(key);
  if (stored) return { body: stored.body, size: stored.size, contentType, cached: true, etag };

  const row = await requireFile(ctx, workspaceId, request.storageName);
  let making = inFlight.get(key);
  if (!making) {
    making = (async () => {
      const source = await openFile(ctx, row);
      const buffer = await resizeImage(source.body, request, format, ctx.config.imageMaxPixels);
      await storage.putBuffer(key, buffer, contentType);
      return buffer;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, making);
  }
  const buffer = await making;
  return { body: buffer, size: buffer.length, contentType, cached: false, etag };
}
