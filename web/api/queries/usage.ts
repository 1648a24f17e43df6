import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  modelPricesReplySchema,
  sessionsUsageReplySchema,
  usageReportReplySchema,
  type UpdateModelPricesRequest,
} from '../../../common/usage';
import { checkedApi, unwrap } from '../client';

/** What the model cost (server/modules/usage): sessions, the user, the server; prices. */
export const usageKeys = {
  all: ['usage'] as const,
  sessions: (ids: readonly string[], version: string) =>
    [...usageKeys.all, 'sessions', ids.join(','), version] as const,
  mine: ['usage', 'mine'] as const,
  server: ['usage', 'server'] as const,
  prices: ['usage', 'prices'] as const,
};

/**
 * The usage of one or more sessions (a team screen's session, a workflow's steps). `version`
 * changes whenever the sessions may have made calls (status, phase), so the figures follow them;
 * `live` also polls while they run.
 */
export function useSessionsUsage(ids: readonly string[], version: string, live: boolean) {
  return useQuery({
    queryKey: usageKeys.sessions(ids, version),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          sessionsUsageReplySchema,
          ids.length === 1
            ? `/api/agents/sessions/${encodeURIComponent(ids[0]!)}/usage`
            : `/api/agents/usage?sessions=${ids.map(encodeURIComponent).join(',')}`,
          signal,
        ),
      ).then((r) => r.data.usage),
    enabled: ids.length > 0,
    refetchInterval: live ? 5000 : false,
    placeholderData: (previous) => previous,
    retry: false,
  });
}

/** The signed-in user's totals by month, team and model (GET /api/settings/usage). */
export function useMyUsage() {
  return useQuery({
    queryKey: usageKeys.mine,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(usageReportReplySchema, '/api/settings/usage', signal)).then(
        (r) => r.data.usage,
      ),
  });
}

/** The server's totals (GET /api/admin/usage, administrators). */
export function useServerUsage() {
  return useQuery({
    queryKey: usageKeys.server,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(usageReportReplySchema, '/api/admin/usage', signal)).then(
        (r) => r.data.usage,
      ),
  });
}

export function useModelPrices() {
  return useQuery({
    queryKey: usageKeys.prices,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(modelPricesReplySchema, '/api/settings/model-prices', signal)).then(
        (r) => r.data.prices,
      ),
    refetchOnWindowFocus: false,
  });
}

/** Replaces the user's own prices; every cost shown is computed again with them. */
export function useSaveModelPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateModelPricesRequest) =>
      unwrap(checkedApi.put(modelPricesReplySchema, '/api/settings/model-prices', body)),
    onSuccess: (reply) => {
      queryClient.setQueryData(usageKeys.prices, reply.data.prices);
      void queryClient.invalidateQueries({ queryKey: usageKeys.all });
    },
  });
}
