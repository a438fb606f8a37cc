import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SuppressionAnswer, type SuppressionBody } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';
import { suppressionKeys, suppressionsUrl } from './list-suppressions';

/** POST …/suppressions: a manager adds a profile id or an email address by hand. */
export function useAddSuppression(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof SuppressionBody>) =>
      apiRequest(suppressionsUrl(ws), { method: 'POST', body, schema: SuppressionAnswer }),
    onSuccess: () => client.invalidateQueries({ queryKey: suppressionKeys.all(ws) }),
  });
}
