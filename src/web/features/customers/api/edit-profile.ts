import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ProfileDetail, type ProfileEditBody } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';
import { profileKeys, profilesUrl } from './get-profiles';

const Edited = ProfileDetail.pick({ profile: true, consent: true });

/** PATCH …/profiles/{id}: attributes and email consent, based on the updatedAt read (409 when stale). */
export function useEditProfile(ws: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ProfileEditBody>) =>
      apiRequest(`${profilesUrl(ws)}/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: Edited }),
    onSettled: () => client.invalidateQueries({ queryKey: profileKeys.all(ws) }),
  });
}
