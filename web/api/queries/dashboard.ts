import { useQuery } from '@tanstack/react-query';
import { dashboardReplySchema } from '../../../common/dashboard';
import { checkedApi, unwrap } from '../client';

export const dashboardKeys = { all: ['dashboard'] as const };

/** GET /api/dashboard: the overview, computed by the server from the caller's data. */
export function useDashboard() {
  return useQuery({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(dashboardReplySchema, '/api/dashboard', signal)).then((r) => r.data),
    // Running sessions change the numbers; refresh now and then while the page is open.
    refetchInterval: 30_000,
  });
}
