import { QueryClient } from '@tanstack/react-query';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; network trouble may.
        retry: (count, error) => {
          const status = (error as { status?: number }).status;
          return (status === undefined || status >= 500) && count < 2;
        },
      },
    },
  });
}

/**
 * The page's one cache of server answers. A module singleton rather than state of a root
 * component: each route group mounts its own provider around it (see ServerStateOutlet), and
 * they must all share the same cache.
 */
export const queryClient = createQueryClient();
