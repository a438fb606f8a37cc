import { useMutation } from '@tanstack/react-query';
import { PlanAnswer, type ChangeSetBody } from '@shared/api/content-model';
import { apiRequest } from '@web/lib/api-client';
import { contentModelPath } from './get-content-model';

const planModelChange = (workspaceId: string, body: ChangeSetBody) =>
  apiRequest(`${contentModelPath(workspaceId)}/plan`, { method: 'POST', body, schema: PlanAnswer });

/** POST …/content-model/plan: what a change set would do to existing items; writes nothing. */
export const usePlanModelChange = (workspaceId: string) =>
  useMutation({ mutationFn: (body: ChangeSetBody) => planModelChange(workspaceId, body) });
