import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ImportAnswer } from '@shared/api/customers';
import { BatchList } from '@shared/api/workspaces';
import { ApiError, apiRequest } from '@web/lib/api-client';
import { profileKeys } from './get-profiles';

export type ImportKind = 'profiles' | 'customer-events';

const contentTypeOf = (file: File) =>
  /\.(nd)?jsonl?$/i.test(file.name) ? 'application/x-ndjson' : 'text/csv';

/**
 * POST …/{profiles|customer-events}/import with the file itself as the body (streamed by the browser
 * and by the server); answers the finished batch.
 */
async function importFile(ws: string, kind: ImportKind, file: File) {
  const response = await fetch(`/api/v1/workspaces/${encodeURIComponent(ws)}/${kind}/import`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': contentTypeOf(file), 'X-File-Name': encodeURIComponent(file.name) },
    body: file,
  });
  const json = (await response.json().catch(() => undefined)) as
    { error?: { code: string; message: string } } | undefined;
  if (!response.ok) {
    throw new ApiError(
      response.status,
      json?.error?.code ?? 'error',
      json?.error?.message ?? 'Import failed',
    );
  }
  return ImportAnswer.parse(json).batch;
}

export function useImportCustomerData(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => importFile(ws, kind, file),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: profileKeys.all(ws) });
      void client.invalidateQueries({ queryKey: ['workspaces', ws, 'batches'] });
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
