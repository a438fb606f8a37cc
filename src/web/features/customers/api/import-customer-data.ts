import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ImportAnswer } from '@shared/api/customers';
import { PreviewAnswer, type ImportMappingInput } from '@shared/api/customer-imports';
import { BatchList } from '@shared/api/workspaces';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { profileKeys } from './get-profiles';

export type ImportKind = 'profiles' | 'customer-events';

const contentTypeOf = (file: File) =>
  /\.(nd)?jsonl?$/i.test(file.name) ? 'application/x-ndjson' : 'text/csv';

/** The part of a file a preview reads: its start, cut after its last whole line. */
const PREVIEW_BYTES = 512 * 1024;

async function postFile(url: string, file: File, body: Blob | string) {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': contentTypeOf(file), 'X-File-Name': encodeURIComponent(file.name) },
    body,
  });
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (json as { error?: { code: string; message: string } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? 'Import failed');
  }
  return json;
}

/** POST …/import/preview with the file's first rows: the columns and the mapping proposed. */
async function previewFile(ws: string, kind: ImportKind, file: File) {
  let body: Blob | string = file;
  if (file.size > PREVIEW_BYTES) {
    const text = await file.slice(0, PREVIEW_BYTES).text();
    body = text.slice(0, text.lastIndexOf('\n') + 1);
  }
  const url = `/api/v1/workspaces/${encodeURIComponent(ws)}/${kind}/import/preview`;
  return PreviewAnswer.parse(await postFile(url, file, body));
}

export const usePreviewImport = (ws: string) =>
  useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => previewFile(ws, kind, file),
  });

/**
 * POST …/{profiles|customer-events}/import with the file itself as the body (streamed by the browser
 * and by the server) and the mapping as a query parameter; answers the finished batch.
 */
async function importFile(ws: string, kind: ImportKind, file: File, mapping?: ImportMappingInput) {
  const query = mapping ? `?mapping=${encodeURIComponent(JSON.stringify(mapping))}` : '';
  const url = `/api/v1/workspaces/${encodeURIComponent(ws)}/${kind}/import${query}`;
  return ImportAnswer.parse(await postFile(url, file, file)).batch;
}

export function useImportCustomerData(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file, mapping }: { kind: ImportKind; file: File; mapping?: ImportMappingInput }) =>
      importFile(ws, kind, file, mapping),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: profileKeys.all(ws) });
      void client.invalidateQueries({ queryKey: ['workspaces', ws, 'batches'] });
      void client.invalidateQueries({ queryKey: ['workspaces', ws, 'criteria-definitions'] });
    },
  });
}

/** The workspace's newest running batch, polled each second while an import is under way. */
export const useRunningBatch = (ws: string, isImporting: boolean) =>
  useQuery({
    queryKey: ['workspaces', ws, 'batches', 'running'],
    queryFn: ({ signal }) =>
      apiRequest(`/api/v1/workspaces/${encodeURIComponent(ws)}/batches`, { schema: BatchList, signal }),
    select: (data) => data.batches.find((batch) => batch.status === 'running') ?? null,
    enabled: isImporting,
    refetchInterval: isImporting ? 1000 : false,
  });
