import { useQuery } from '@tanstack/react-query';
import { EmailPreviewAnswer } from '@shared/api/email';
import { apiRequest } from '@web/lib/api-client';

/** GET …/emails/{id}/preview: the saved email as a test send would send it, with its HTML size. */
const getEmailPreview = (workspaceId: string, id: string, signal?: AbortSignal) =>
  apiRequest(
    `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/emails/${encodeURIComponent(id)}/preview`,
    { schema: EmailPreviewAnswer, signal },
  );

/** Keyed by the saved version: a save builds another message. */
export const useEmailPreview = (workspaceId: string, id: string, version: number | undefined) =>
  useQuery({
    queryKey: ['email', workspaceId, id, 'preview', version] as const,
    queryFn: ({ signal }) => getEmailPreview(workspaceId, id, signal),
    enabled: !!workspaceId && !!id,
  });
