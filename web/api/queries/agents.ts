import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  agentListReplySchema,
  agentTeamsReplySchema,
  executionListReplySchema,
  executionReplySchema,
  metricsReplySchema,
  sessionActionReplySchema,
  type Execution,
  type ExecutionListReply,
  type SessionStatus,
  type SessionUpdate,
} from '../../../common/agents';
import { checkedApi, unwrap } from '../client';
import { getTeamSocket, type TeamSocket } from '../ws';
import { queryString } from './query-string';

/**
 * The agent runtime's read side for the Agent Workflow page and the team screens: the agent
 * registry (v2), the teams, the caller's executions and metrics, the session controls, and a
 * hook that keeps the cached executions live from the real-time channel.
 */

export interface ExecutionListParams {
  status?: SessionStatus;
  team?: string;
  projectId?: string;
  limit?: number;
  offset?: number;
}

export const agentKeys = {
  all: ['agents'] as const,
  registry: () => [...agentKeys.all, 'registry'] as const,
  teams: () => [...agentKeys.all, 'teams'] as const,
  metrics: () => [...agentKeys.all, 'metrics'] as const,
  executions: () => [...agentKeys.all, 'executions'] as const,
  executionList: (params: ExecutionListParams) => [...agentKeys.executions(), params] as const,
};

/** Default page of the overview: the most recent executions. */
const EXECUTIONS_SHOWN = 50;
/** Fallback refresh of lists while something runs, for when the real-time channel is down. */
const LIVE_LIST_REFRESH_MS = 10_000;

/** GET /api/v2/agents: every agent the server can run. */
export function useAgentRegistry() {
  return useQuery({
    queryKey: agentKeys.registry(),
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(agentListReplySchema, '/api/v2/agents', signal)).then((r) => r.agents),
    staleTime: 60_000,
  });
}

/** GET /api/agents/teams: the teams with their phases, availability and the model status. */
export function useAgentTeams() {
  return useQuery({
    queryKey: agentKeys.teams(),
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(agentTeamsReplySchema, '/api/agents/teams', signal)),
    staleTime: 60_000,
  });
}

function isLive(e: Pick<Execution, 'status'>): boolean {
  return e.status === 'processing' || e.status === 'waiting_for_input';
}

/** GET /api/v2/agents/executions: the caller's sessions, newest first. */
export function useExecutions(params: ExecutionListParams = {}, enabled = true) {
  const query = { limit: EXECUTIONS_SHOWN, ...params };
  return useQuery({
    queryKey: agentKeys.executionList(query),
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          executionListReplySchema,
          `/api/v2/agents/executions${queryString(query)}`,
          signal,
        ),
      ),
    enabled,
    refetchInterval: (q) => (q.state.data?.executions.some(isLive) ? LIVE_LIST_REFRESH_MS : false),
  });
}

/** GET /api/v2/agents/metrics: counts by team and agent over the caller's sessions. */
export function useAgentMetrics() {
  return useQuery({
    queryKey: agentKeys.metrics(),
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(metricsReplySchema, '/api/v2/agents/metrics', signal)).then(
        (r) => r.metrics,
      ),
  });
}

/** Folds one session-update into the cached execution lists; false when the session is new. */
function applyUpdateToExecutions(client: QueryClient, update: SessionUpdate): boolean {
  let known = false;
  client.setQueriesData<ExecutionListReply>({ queryKey: agentKeys.executions() }, (data) => {
    if (!data) return data;
    let changed = false;
    const executions = data.executions.map((e) => {
      if (e.sessionId !== update.sessionId) return e;
      known = true;
      changed = true;
      const finished = update.status === 'completed' || update.status === 'error';
      return {
        ...e,
        status: update.status,
        phase: update.phase,
        checkpoint: update.checkpoint,
        // A pause is announced by its log line with status idle; everything else un-pauses.
        paused: update.status === 'idle' ? e.paused : false,
        completedAt: finished ? (e.completedAt ?? update.timestamp) : e.completedAt,
        error:
          (update.updateType === 'error' || update.updateType === 'process_error') && update.data
            ? update.data.error
            : e.error,
      };
    });
    return changed ? { ...data, executions } : data;
  });
  return known;
}

/**
 * Keeps the cached executions live: subscribes to every team's updates (all of the caller's
 * sessions) and patches the lists; an update of a session not in the lists refetches them.
 */
export function useLiveExecutions(subscriptionTypes: readonly string[], socket?: TeamSocket) {
  const client = useQueryClient();
  const key = [...subscriptionTypes].sort().join(',');
  useEffect(() => {
    if (!key) return;
    const channel = socket ?? getTeamSocket();
    const offs = key.split(',').map((type) => channel.subscribe(type, {}));
    let refetching: ReturnType<typeof setTimeout> | undefined;
    let statusTimer: ReturnType<typeof setTimeout> | undefined;
    const offMessage = channel.onMessage((message) => {
      if (message.type !== 'session-update') return;
      const known = applyUpdateToExecutions(client, message);
      if (!known || message.status === 'idle') {
        // A new session, or a pause or reset that only a fresh read shows in full: read the
        // lists again (once for a burst of updates).
        refetching ??= setTimeout(() => {
          refetching = undefined;
          void client.invalidateQueries({ queryKey: agentKeys.executions() });
        }, 300);
      }
      if (message.updateType !== 'log_update') {
        statusTimer ??= setTimeout(() => {
          statusTimer = undefined;
          void client.invalidateQueries({ queryKey: agentKeys.metrics() });
        }, 1000);
      }
    });
    return () => {
      offMessage();
      offs.forEach((off) => off());
      clearTimeout(refetching);
      clearTimeout(statusTimer);
    };
  }, [key, client, socket]);
}

export type SessionControl = 'pause' | 'resume' | 'reset' | 'cancel';

/** POST /api/agents/sessions/{id}/{pause|resume|reset|cancel}; refreshes the lists after. */
export function useSessionControl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, action }: { sessionId: string; action: SessionControl }) =>
      unwrap(
        checkedApi.post(
          sessionActionReplySchema,
          `/api/agents/sessions/${encodeURIComponent(sessionId)}/${action}`,
        ),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** POST /api/v2/agents/{agentId}/execute with the session id: runs a reset session again. */
export function useRestartSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (args: {
      agentId: string;
      sessionId: string;
      input: Record<string, unknown>;
      configuration: Record<string, unknown>;
      projectId?: string | null;
    }) =>
      unwrap(
        checkedApi.post(
          executionReplySchema,
          `/api/v2/agents/${encodeURIComponent(args.agentId)}/execute`,
          {
            input: args.input,
            configuration: args.configuration,
            sessionId: args.sessionId,
            ...(args.projectId ? { projectId: args.projectId } : {}),
          },
        ),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
