import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CreatedPreviewToken,
  PreviewOrigins,
  PreviewRenderAnswer,
  type CreatePreviewTokenBody,
  type PreviewRenderAnswer as RenderAnswer,
  type PreviewRenderBody,
} from '@shared/api/preview';
import { apiRequest } from '@web/lib/api-client';

const seg = encodeURIComponent;
const workspacePath = (ws: string) => `/api/v1/workspaces/${seg(ws)}`;

const previewKeys = {
  origins: (ws: string) => ['workspaces', ws, 'preview-origins'] as const,
  token: (ws: string, scope: CreatePreviewTokenBody) => ['workspaces', ws, 'preview-token', scope] as const,
};

/** GET …/preview-origins: the origins whose pages the preview pane shows and talks to. */
export const usePreviewOrigins = (ws: string, enabled = true) =>
  useQuery({
    queryKey: previewKeys.origins(ws),
    queryFn: () => apiRequest(`${workspacePath(ws)}/preview-origins`, { schema: PreviewOrigins }),
    enabled,
  });

/** PUT …/preview-origins (managers). Updates: the cached origins. */
export function useUpdatePreviewOrigins(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (origins: string[]) =>
      apiRequest(`${workspacePath(ws)}/preview-origins`, {
        method: 'PUT',
        body: { origins },
        schema: PreviewOrigins,
      }),
    onSuccess: (answer) => client.setQueryData(previewKeys.origins(ws), answer),
  });
}

/** A token is made again this long before it expires, so the page never holds a dead one. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * POST …/preview-tokens for the pane: a token scoped to the item (and release) shown, made again
 * shortly before it expires.
 */
export const usePreviewToken = (ws: string, scope: CreatePreviewTokenBody, enabled: boolean) =>
  useQuery({
    queryKey: previewKeys.token(ws, scope),
    queryFn: () =>
      apiRequest(`${workspacePath(ws)}/preview-tokens`, {
        method: 'POST',
        body: scope,
        schema: CreatedPreviewToken,
      }),
    enabled,
    staleTime: (query) =>
      query.state.data
        ? Math.max(0, Date.parse(query.state.data.expiresAt) - Date.now() - TOKEN_MARGIN_MS)
        : 0,
    refetchInterval: (query) =>
      query.state.data
        ? Math.max(1000, Date.parse(query.state.data.expiresAt) - Date.now() - TOKEN_MARGIN_MS)
        : false,
    refetchOnWindowFocus: false,
  });

/** POST …/preview/render: the form's unsaved values in the delivery shape, nothing written. */
export async function renderPreview(
  ws: string,
  body: PreviewRenderBody,
  signal?: AbortSignal,
): Promise<RenderAnswer> {
  const answer = await apiRequest(`${workspacePath(ws)}/preview/render`, {
    method: 'POST',
    body,
    schema: PreviewRenderAnswer,
    signal,
  });
  // The answer's item is checked as an object; its shape is the delivery API's.
  return { item: answer.item as unknown as RenderAnswer['item'], editInfo: answer.editInfo };
}
