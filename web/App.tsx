import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ThemeModeProvider } from './components/ThemeModeProvider';
import { createAppRouter } from './router';

export function createQueryClient(): QueryClient {
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

/** The web app: server state (TanStack Query), theme and mode, and the router. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        <RouterProvider router={router} />
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
