import { useMutation } from '@tanstack/react-query';
import { FileRecord } from '@shared/media/contract';
import { apiRequest } from '@web/lib/api-client';
import { filesUrl } from './upload-file';

/** PATCH /api/v1/workspaces/{id}/files/{storageName}: the focal point kept in the file record too. */
export const setFocus = (
  workspaceId: string,
  storageName: string,
  focus: { focusX: number; focusY: number },
) =>
  apiRequest(`${filesUrl(workspaceId)}/${encodeURIComponent(storageName)}`, {
    method: 'PATCH',
    body: focus,
    schema: FileRecord,
  });

/** Setting a file's focal point; no cache to invalidate (the field value holds it). */
export function useSetFocus(workspaceId: string) {
  return useMutation({
    mutationFn: ({ storageName, ...focus }: { storageName: string; focusX: number; focusY: number }) =>
      setFocus(workspaceId, storageName, focus),
  });
}
