import { ErrorBody } from '@shared/api/errors';
import { FileRecord } from '@shared/media/contract';
import { ApiError } from '@web/lib/api-client';

interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes to send, when the browser knows it. */
  total: number | null;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export const filesUrl = (workspaceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/files`;

const UPLOAD_FALLBACKS: Record<number, string> = {
  0: 'Cannot reach the server. Check your connection and try again.',
  413: 'The file is too large to upload.',
  415: 'Only images can be uploaded.',
};

function uploadError(status: number, responseText: string): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(responseText);
  } catch {
    json = undefined;
  }
  const parsed = ErrorBody.safeParse(json);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(status, code, message, details);
  }
  const message =
    UPLOAD_FALLBACKS[status] ??
    (status >= 500 ? 'The server had a problem. Please try again.' : `Request failed (${status})`);
  return new ApiError(status, status === 0 ? 'network_error' : 'http_error', message);
}

/**
 * POST /api/v1/workspaces/{id}/files: one file as multipart, through XMLHttpRequest so the browser's
 * upload events report progress (spec §7). Resolves to the File field value record; rejects with an
 * ApiError carrying the server's message, or an AbortError when `signal` aborts.
 */
export function uploadFile(
  workspaceId: string,
  file: File,
  { onProgress, signal }: UploadOptions = {},
): Promise<FileRecord> {
  return new Promise<FileRecord>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', filesUrl(workspaceId));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) =>
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(uploadError(xhr.status, xhr.responseText));
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      const parsed = FileRecord.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else
        reject(
          new ApiError(xhr.status, 'bad_response', 'The server sent an answer this app does not understand.'),
        );
    };
    xhr.onerror = () => reject(uploadError(0, ''));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    onProgress?.({ loaded: 0, total: file.size });
    xhr.send(form);
  });
}

export const isAbortError = (e: unknown) => (e as { name?: string } | null)?.name === 'AbortError';
