import { queryOptions, useQuery } from '@tanstack/react-query';
import { PublicConfig } from '@shared/api/public-config';
import { apiRequest } from './api-client';

/** GET /__/config.json, read once when the app starts (main.tsx prefetches it) and kept for the session. */
export const publicConfigOptions = queryOptions({
  queryKey: ['public-config'],
  queryFn: ({ signal }) => apiRequest('/__/config.json', { schema: PublicConfig, signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});

export const usePublicConfig = () => useQuery(publicConfigOptions);
