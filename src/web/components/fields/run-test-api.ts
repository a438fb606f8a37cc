import { useMutation } from '@tanstack/react-query';
import { RunTestAnswer } from '@shared/api/sandbox';
import { apiRequest } from '@web/lib/api-client';

/**
 * POST /fun/testCollection/runTest, beside the code field that offers 'Run': the item form is
 * a shared component and may not import a feature.
 */
const runTest = (ws: string, fun: string) =>
  apiRequest(`/fun/testCollection/runTest?${new URLSearchParams({ __marquee_workspace: ws })}`, {
    method: 'POST',
    body: { fun },
    schema: RunTestAnswer,
  });

export const useRunTest = (ws: string) => useMutation({ mutationFn: (fun: string) => runTest(ws, fun) });
