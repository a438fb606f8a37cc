import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** The one QueryClient: loaders (route guards) and components read and write the same cache. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors (401, 403, 404, 409) will not get better by asking again.
      retry: (count, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && count < 2,
    },
    mutations: { retry: false },
  },
});
