import type { AgentRuntime, AppContext } from '../context';

/**
 * Creates the agent runtime (sessions, job queue, /ws channel, v2 agents API).
 * `worker` runs phase jobs in this process (embedded mode, or `npm run worker`).
 */
export async function createAgentRuntime(
  _ctx: Omit<AppContext, 'agents'>,
  _opts: { worker: boolean },
): Promise<AgentRuntime> {
  // The runtime is built in its own issue; until then no team is available.
  return {
    queueState: () => 'not-started',
    isTeamAvailable: () => false,
    registerRoutes: async () => undefined,
    stop: async () => undefined,
  };
}
