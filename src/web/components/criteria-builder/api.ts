import { useQuery } from '@tanstack/react-query';
import { AudienceSizes, CriteriaDefinitions, SampleAnswer, SizeAnswer } from '@shared/api/customers';
import { apiRequest } from '@web/lib/api-client';

/**
 * The rule builder's calls. It is a shared component (the item form's criteria editor), so its fetchers
 * live beside it rather than in a feature.
 */
const base = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/audiences`;

const criteriaKeys = {
  definitions: (ws: string) => ['workspaces', ws, 'criteria-definitions'] as const,
  size: (ws: string, criteria: string) => ['workspaces', ws, 'audience-size', criteria] as const,
  sample: (ws: string, criteria: string) => ['workspaces', ws, 'audience-sample', criteria] as const,
  sizes: (ws: string) => ['workspaces', ws, 'audience-sizes'] as const,
};

/** GET …/audiences/definitions: the attributes, events and audiences rules may refer to. */
export const useCriteriaDefinitions = (ws: string) =>
  useQuery({
    queryKey: criteriaKeys.definitions(ws),
    queryFn: ({ signal }) => apiRequest(`${base(ws)}/definitions`, { schema: CriteriaDefinitions, signal }),
    staleTime: 30_000,
  });

/**
 * POST …/audiences/size for a (debounced) tree. A new tree is a new query; the previous one loses its
 * observer and TanStack Query aborts its request through the signal.
 */
export const useAudienceSize = (ws: string, criteria: string | null) =>
  useQuery({
    queryKey: criteriaKeys.size(ws, criteria ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(`${base(ws)}/size`, {
        method: 'POST',
        body: { criteria: JSON.parse(criteria!) },
        schema: SizeAnswer,
        signal,
      }),
    enabled: criteria !== null,
    retry: false,
    placeholderData: (previous) => previous,
  });

/** POST …/audiences/sample: up to 10 matching profiles, fetched when the sample opens. */
export const useAudienceSample = (ws: string, criteria: string, enabled: boolean) =>
  useQuery({
    queryKey: criteriaKeys.sample(ws, criteria),
    queryFn: ({ signal }) =>
      apiRequest(`${base(ws)}/sample`, {
        method: 'POST',
        body: { criteria: JSON.parse(criteria) },
        schema: SampleAnswer,
        signal,
      }),
    enabled,
    retry: false,
  });

/** GET …/audiences/sizes: every audience's size now, one request shared by a whole list. */
export const useAudienceSizes = (ws: string) =>
  useQuery({
    queryKey: criteriaKeys.sizes(ws),
    queryFn: ({ signal }) => apiRequest(`${base(ws)}/sizes`, { schema: AudienceSizes, signal }),
    staleTime: 10_000,
  });
