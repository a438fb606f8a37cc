import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PublishResult, UnpublishResult } from '@shared/api/items';
import { apiRequest } from '@web/lib/api-client';
import { itemKeys, itemPath } from './keys';

interface StageInput {
  ws: string;
  schema: string;
  id: string;
  stage: string;
}

/** POST …/publish/{stage}: copies the current version to the stage (and, with publishRefs, its references). */
const publishItem = ({ ws, schema, id, stage, publishRefs }: StageInput & { publishRefs: boolean }) =>
  apiRequest(`${itemPath(ws, schema, id)}/publish/${encodeURIComponent(stage)}`, {
    method: 'POST',
    body: { publishRefs },
    schema: PublishResult,
  });

/** DELETE …/publish/{stage}: removes the stage copy. */
const unpublishItem = ({ ws, schema, id, stage }: StageInput) =>
  apiRequest(`${itemPath(ws, schema, id)}/publish/${encodeURIComponent(stage)}`, {
    method: 'DELETE',
    schema: UnpublishResult,
  });

function useStageMutation<I extends StageInput, R extends { item: { id: string; schema: string } }>(
  fn: (input: I) => Promise<R>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result, { ws }) => {
      client.setQueryData(itemKeys.detail(ws, result.item.schema, result.item.id), result.item);
      // References published with the item change too: refresh every item and list of the workspace.
      void client.invalidateQueries({ queryKey: itemKeys.all(ws) });
    },
  });
}

export const usePublishItem = () => useStageMutation(publishItem);
export const useUnpublishItem = () => useStageMutation(unpublishItem);
