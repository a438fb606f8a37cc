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
