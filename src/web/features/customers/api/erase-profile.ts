import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EraseProfileAnswer } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';
import { profileKeys, profilesUrl } from './get-profiles';

/** DELETE …/profiles/{id}: erases the profile, its events and counts; optionally suppresses its id. */
export function useEraseProfile(ws: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ suppress }: { suppress: boolean }) =>
      apiRequest(`${profilesUrl(ws)}/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        body: { suppress },
        schema: EraseProfileAnswer,
      }),
    onSuccess: () => {
      client.removeQueries({ queryKey: profileKeys.one(ws, id) });
      return client.invalidateQueries({ queryKey: profileKeys.all(ws) });
    },
  });
}
