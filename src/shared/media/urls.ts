import { WORKSPACE_QUERY_PARAM } from './contract';

/** Where members read a file's content (the file record's publicUrl). */
export const fileUrl = (workspaceId: string, storageName: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/files/${encodeURIComponent(storageName)}`;

/** A thumbnail: lists use w=400, the upload table h=100, the editor w=600 (spec §7). */
export function imageResizeUrl(
  workspaceId: string,
  storageName: string,
  size: { w?: number; h?: number },
): string {
  const query = new URLSearchParams({ id: storageName });
  if (size.w !== undefined) query.set('w', String(size.w));
  if (size.h !== undefined) query.set('h', String(size.h));
  query.set(WORKSPACE_QUERY_PARAM, workspaceId);
  return `/fun/imageResize/?${query}`;
}

export interface OwnImage {
  workspaceId: string;
  storageName: string;
}

const STORAGE_NAME = /^[A-Za-z0-9]{16,40}\.(jpg|png|gif|webp|avif|tif)$/;

/**
 * The workspace and file an image URL points at when it is one of ours (a file URL or an imageResize
 * URL, relative or under `origin`); null for anything else. Rich text may only show such images.
 */
export function parseOwnImageUrl(src: string, origin?: string): OwnImage | null {
  let url: URL;
  try {
    url = new URL(src, 'http://own.invalid');
  } catch {
    return null;
  }
  const isRelative = url.origin === 'http://own.invalid' && src.startsWith('/') && !src.startsWith('//');
  const isOwnOrigin = origin !== undefined && url.origin === new URL(origin).origin;
  if (!isRelative && !isOwnOrigin) return null;
  const file = /^\/api\/v1\/workspaces\/([a-z0-9][a-z0-9-]{0,62})\/files\/([^/]+)$/.exec(url.pathname);
  if (file && !url.search && STORAGE_NAME.test(decodeURIComponent(file[2]))) {
    return { workspaceId: file[1], storageName: decodeURIComponent(file[2]) };
  }
  if (url.pathname === '/fun/imageResize/' || url.pathname === '/fun/imageResize') {
    const id = url.searchParams.get('id') ?? '';
    const workspaceId = url.searchParams.get(WORKSPACE_QUERY_PARAM) ?? '';
    const extra = [...url.searchParams.keys()].filter(
      (k) => !['id', 'w', 'h', WORKSPACE_QUERY_PARAM].includes(k),
    );
    const sizes = ['w', 'h'].map((k) => url.searchParams.get(k)).filter((v) => v !== null);
    if (
      STORAGE_NAME.test(id) &&
      /^[a-z0-9][a-z0-9-]{0,62}$/.test(workspaceId) &&
      extra.length === 0 &&
      sizes.length > 0 &&
      sizes.every((v) => /^\d{1,4}$/.test(v as string))
    ) {
      return { workspaceId, storageName: id };
    }
  }
  return null;
}
