import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from './query-client';

/**
 * Server state (TanStack Query) for every route below it. A layout route loaded as its own chunk,
 * so the landing page, which reads nothing from the API, does not carry the query library.
 */
export default function ServerStateOutlet() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
