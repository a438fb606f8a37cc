import fs from 'node:fs';
import path from 'node:path';
import type { FileRecord, SanityResult } from '@shared/media/contract';
import { fileUrl } from '@shared/media/urls';
import type { AppContext } from '../context';
import { AppError, forbidden, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { actorOf, journal } from '../journal/journal';
import type { WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';
import { dHashOf, readImageFacts, STORABLE_TYPES } from './images';
import { createAssetStorage, uploadKey, type AssetStorage, type StoredObject } from './storage';
import type { ReceivedUpload } from './upload';

export const FILE_NOT_FOUND = 'File not found';

const storages = new WeakMap<AppContext, AssetStorage>();

/** The assets store of this app (disk or S3 by configuration), made once per context. */
export function storageOf(ctx: AppContext): AssetStorage {
  let storage = storages.get(ctx);
  if (!storage) {
    storage = createAssetStorage(ctx.config);
    storages.set(ctx, storage);
  }
  return storage;
}

/** Where uploads wait while they are checked: beside the assets, so moving them in is a rename. */
export const uploadTempDir = (ctx: AppContext) => path.join(ctx.config.dataDir, 'tmp', 'uploads');

export function toFileRecord(row: repo.FileRow): FileRecord {
  return {
    name: row.name,
    size: row.size,
    contentType: row.contentType,
    storageName: row.storageName,
    publicUrl: fileUrl(row.workspaceId, row.storageName),
    md5Hash: row.md5Hash,
    focusX: row.focusX,
    focusY: row.focusY,
    sanityResults: (row.sanityResults as SanityResult | null) ?? null,
  };
}

/** Uploading needs edit rights on at least one schema: files only ever end up in items. */
export function requireUploader(access: WorkspaceAccess) {
  if (access.permissions.canEdit.length === 0) {
    throw forbidden('You need edit rights on at least one type to upload files');
  }
}

const TYPE_NAMES = 'JPEG, PNG, GIF, WebP, AVIF or TIFF';

/**
 * Checks a received upload by its bytes (type, readable header, pixel limit, decodable pixels), moves it
 * into the assets store and records it. The temporary file is always removed.
 */
export async function storeUpload(
  ctx: AppContext,
  access: WorkspaceAccess,
  upload: ReceivedUpload,
): Promise<FileRecord> {
  requireUploader(access);
  const storage = storageOf(ctx);
  const workspaceId = access.workspace.id;
  try {
    const { fileTypeFromFile } = await import('file-type');
    const sniffed = await fileTypeFromFile(upload.tempPath);
    const extension = sniffed ? STORABLE_TYPES[sniffed.mime] : undefined;
    if (!sniffed || !extension) {
      const what = sniffed ? `a ${sniffed.mime} file` : 'not an image';
      throw new AppError(
        'unsupported_type',
        `Only images can be uploaded (${TYPE_NAMES}); this file is ${what}.`,
      );
    }
    const facts = await readImageFacts(upload.tempPath).catch(() => {
      throw new AppError('unreadable_image', 'The image cannot be read; it may be damaged.');
    });
    const pixels = facts.width * facts.height;
    if (pixels > ctx.config.imageMaxPixels) {
      throw new AppError(
        'too_many_pixels',
        `The image is too large: ${facts.width} × ${facts.height} pixels is more than the limit of ` +
          `${ctx.config.imageMaxPixels.toLocaleString('en-US')} pixels.`,
      );
    }
    // Decoding for the perceptual hash also proves the pixels are there, not just a header.
    const dhash = await dHashOf(upload.tempPath, ctx.config.imageMaxPixels).catch(() => {
      throw new AppError('unreadable_image', 'The image cannot be read; it may be damaged.');
    });

    const storageName = `${randomId(24)}.${extension}`;
    const key = uploadKey(workspaceId, storageName);
    await storage.putFile(key, upload.tempPath, { contentType: sniffed.mime, size: upload.size });
    try {
      const row = await ctx.db.transaction(async (tx) => {
        const inserted = await repo.insertFile(tx, {
          workspaceId,
          storageName,
          name: upload.name,
          size: upload.size,
          contentType: sniffed.mime,
          md5Hash: upload.md5Hash,
          width: facts.width,
          height: facts.height,
          dhash,
          createdBy: access.user.id,
        });
        await journal(tx, { audit: [fileAudit(access, 'file.uploaded', inserted, { size: upload.size })] });
        return inserted;
      });
      return toFileRecord(row);
    } catch (err) {
      await storage.delete(key).catch(() => {});
      throw err;
    }
  } finally {
    await fs.promises.rm(upload.tempPath, { force: true });
  }
}

/** A file of the workspace, or 404 'File not found'. */
export async function requireFile(
  ctx: AppContext,
  workspaceId: string,
  storageName: string,
): Promise<repo.FileRow> {
  const row = await repo.findFile(ctx.db, workspaceId, storageName);
  if (!row) throw notFound(FILE_NOT_FOUND);
  return row;
}

/** The records of the named files of a workspace, by storage name; unknown names are absent. */
export async function fileRecordsOf(
  ctx: AppContext,
  workspaceId: string,
  storageNames: readonly string[],
): Promise<Map<string, FileRecord>> {
  const rows = await repo.findFiles(ctx.db, workspaceId, storageNames);
  return new Map(rows.map((row) => [row.storageName, toFileRecord(row)]));
}

/** The stored content of a file; 404 when the record or the object is missing. */
export async function openFile(ctx: AppContext, row: repo.FileRow): Promise<StoredObject> {
  const object = await storageOf(ctx).get(uploadKey(row.workspaceId, row.storageName));
  if (!object) {
    ctx.log.error(
      { workspaceId: row.workspaceId, storageName: row.storageName },
      'file record without content',
    );
    throw notFound(FILE_NOT_FOUND);
  }
  return object;
}

/** Sets the focal point (0 to 1 on each axis); needs the same rights as uploading. */
export async function setFocus(
  ctx: AppContext,
  access: WorkspaceAccess,
  storageName: string,
  focus: { focusX: number; focusY: number },
) {
  requireUploader(access);
  const row = await ctx.db.transaction(async (tx) => {
    const updated = await repo.updateFile(tx, access.workspace.id, storageName, focus);
    if (!updated) throw notFound(FILE_NOT_FOUND);
    await journal(tx, { audit: [fileAudit(access, 'file.updated', updated, focus)] });
    return updated;
  });
  return toFileRecord(row);
}

const fileAudit = (
  access: WorkspaceAccess,
  action: 'file.uploaded' | 'file.updated',
  row: repo.FileRow,
  detail: Record<string, unknown>,
) => ({
  workspaceId: access.workspace.id,
  user: actorOf(access),
  action,
  targetType: 'file' as const,
  targetId: row.storageName,
  label: row.name,
  detail,
});

/** Bytes stored for the workspace's uploads, for the subscription screen. */
export const storageBytesOf = (ctx: AppContext, workspaceId: string) =>
  repo.sumFileSizes(ctx.db, workspaceId);
