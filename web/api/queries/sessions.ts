import { useQuery } from '@tanstack/react-query';
import { sessionListReplySchema, type AgentSession } from '../../../common/agents';
import { checkedApi, unwrap } from '../client';
import { queryString } from './query-string';

/** The caller's agent sessions (GET /api/agents/sessions). */
export const sessionKeys = {
  all: ['agent-sessions'] as const,
  open: (teamId: string) => [...sessionKeys.all, 'open', teamId] as const,
};

/**
 * The caller's open sessions of one team (running or waiting at a checkpoint), newest first: what
 * a team screen opened without a session offers to resume.
 */
export function useOpenTeamSessions(teamId: string, enabled = true) {
  return useQuery({
    queryKey: sessionKeys.open(teamId),
    queryFn: async ({ signal }): Promise<AgentSession[]> => {
      const lists = await Promise.all(
        (['waiting_for_input', 'processing'] as const).map((status) =>
          unwrap(
            checkedApi.get(
              sessionListReplySchema,
              `/api/agents/sessions${queryString({ teamId, status, limit: 20 })}`,
              signal,
            ),
          ),
        ),
      );
      // A session that changed status between the two calls is listed once.
      const byId = new Map(lists.flatMap((l) => l.sessions).map((s) => [s.sessionId, s]));
      return [...byId.values()].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    },
    enabled,
    retry: false,
  });
}
