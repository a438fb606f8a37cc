import type { Readable } from 'node:stream';
import path from 'node:path';
import type { Config } from '../config';
import { createDiskStorage } from './disk-storage';
import { createS3Storage } from './s3-storage';

export interface StoredObject {
  body: Readable;
  size: number;
  contentType?: string;
}

/**
 * The workspace's `assets` store (spec §7). Keys are `{workspace}/{storageName}` for uploads and
 * `{workspace}/_resized/{storageName}/{variant}` for cached thumbnails.
 */
export interface AssetStorage {
  readonly kind: 'disk' | 's3';
  /** Moves or streams a local file into the store under `key`. The local file is left for the caller to remove. */
  putFile(key: string, localPath: string, meta: { contentType: string; size: number }): Promise<void>;
  /** Stores a small generated object (a thumbnail). */
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes every object whose key starts with `prefix` (used when a workspace's files go). */
  deletePrefix(prefix: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export const uploadKey = (workspaceId: string, storageName: string) => `${workspaceId}/${storageName}`;
export const resizedKey = (workspaceId: string, storageName: string, variant: string) =>
  `${workspaceId}/_resized/${storageName}/${variant}`;

/** S3 when `S3_BUCKET` is set, otherwise `DATA_DIR/assets` (DESIGN §1). */
export function createAssetStorage(config: Config): AssetStorage {
  if (config.s3) return createS3Storage(config.s3);
  return createDiskStorage(path.join(config.dataDir, 'assets'));
}
