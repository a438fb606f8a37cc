import { Batch } from '@shared/api/workspaces';
import { apiRequest } from '@web/lib/api-client';

const base = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/batches`;

/** POST …/batches: a bulk image upload's batch, opened with the number of images it saves. */
export const startUploadBatch = (ws: string, total: number) =>
  apiRequest(base(ws), { method: 'POST', body: { kind: 'image-upload', total }, schema: Batch });

/** POST …/batches/{id}/progress: images saved or failed since the last report; `finished` ends it. */
export const reportUploadBatch = (
  ws: string,
  id: string,
  report: {
    processed?: number;
    failed?: number;
    errors?: { line: number; message: string }[];
    finished?: boolean;
  },
) =>
  apiRequest(`${base(ws)}/${encodeURIComponent(id)}/progress`, {
    method: 'POST',
    body: report,
    schema: Batch,
  });
