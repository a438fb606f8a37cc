import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TestSendAnswer, type ItemTestSendBody } from '@shared/api/email';
import { apiRequest } from '@web/lib/api-client';
import { testSendsQueryKey } from './list-test-sends';

const emailUrl = (workspaceId: string, id: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/emails/${encodeURIComponent(id)}`;

/** POST …/emails/{id}/test-send: the saved email to its test addresses; answers 'Test sent to …'. */
function sendTest(workspaceId: string, id: string, body: ItemTestSendBody = {}) {
  return apiRequest(`${emailUrl(workspaceId, id)}/test-send`, {
    method: 'POST',
    body,
    schema: TestSendAnswer,
  });
}

export function useSendTest(workspaceId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ItemTestSendBody = {}) => sendTest(workspaceId, id, body),
    // A failed send is recorded too.
    onSettled: () => client.invalidateQueries({ queryKey: testSendsQueryKey(workspaceId, id) }),
  });
}
