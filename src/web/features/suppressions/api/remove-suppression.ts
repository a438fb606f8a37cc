import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@web/lib/api-client';
import { suppressionKeys, suppressionsUrl } from './list-suppressions';

/** DELETE …/suppressions/{id}: a manager removes an entry. */
export function useRemoveSuppression(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`${suppressionsUrl(ws)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: suppressionKeys.all(ws) }),
  });
}
