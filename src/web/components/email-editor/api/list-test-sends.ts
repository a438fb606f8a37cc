import { useQuery } from '@tanstack/react-query';
import { TestSendList } from '@shared/api/email';
import { apiRequest } from '@web/lib/api-client';

export const testSendsQueryKey = (workspaceId: string, id: string) =>
  ['email', workspaceId, id, 'test-sends'] as const;

/** GET …/emails/{id}/test-sends: the item's recent test sends, newest first. */
const listTestSends = (workspaceId: string, id: string, signal?: AbortSignal) =>
  apiRequest(
    `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/emails/${encodeURIComponent(id)}/test-sends`,
    { schema: TestSendList, signal },
  );

export const useTestSends = (workspaceId: string, id: string, enabled = true) =>
  useQuery({
    queryKey: testSendsQueryKey(workspaceId, id),
    queryFn: ({ signal }) => listTestSends(workspaceId, id, signal),
    enabled: enabled && !!workspaceId && !!id,
  });
