import { useQuery } from '@tanstack/react-query';
import { sessionListReplySchema } from '../../../common/agents';
import { checkedApi, unwrap } from '../client';
import { queryString } from './query-string';

/** The caller's agent sessions (GET /api/agents/sessions), e.g. those of one project. */
export const sessionKeys = {
  all: ['agent-sessions'] as const,
  byProject: (projectId: string) => [...sessionKeys.all, 'project', projectId] as const,
};

export function useProjectSessions(projectId: string | undefined) {
  return useQuery({
    queryKey: sessionKeys.byProject(projectId ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          sessionListReplySchema,
          `/api/agents/sessions${queryString({ projectId, limit: 50 })}`,
          signal,
        ),
      ),
    enabled: Boolean(projectId),
    // The runtime may not be deployed yet; a 404 means "no sessions to show", not an outage.
    retry: false,
  });
}
