import type { AgentSession, LogsReply, SessionActionReply } from '../../common/agents';
import type { Api } from '../../server/context';
import { bearer } from '../app';

/** Calls for the runtime tests: the generic session endpoints through inject(). */
export function sessionClient(app: Api, token: string) {
  const headers = bearer(token);
  return {
    start(body: Record<string, unknown>) {
      return app.inject({ method: 'POST', url: '/api/agents/sessions', headers, payload: body });
    },
    get(id: string) {
      return app.inject({ method: 'GET', url: `/api/agents/sessions/${id}`, headers });
    },
    logs(id: string, query = '') {
      return app.inject({ method: 'GET', url: `/api/agents/sessions/${id}/logs${query}`, headers });
    },
    feedback(id: string, feedback: string) {
      return app.inject({
        method: 'POST',
        url: `/api/agents/sessions/${id}/feedback`,
        headers,
        payload: { feedback },
      });
    },
    action(id: string, action: 'reset' | 'cancel' | 'pause' | 'resume') {
      return app.inject({ method: 'POST', url: `/api/agents/sessions/${id}/${action}`, headers });
    },
    async session(id: string): Promise<AgentSession> {
      const res = await this.get(id);
      if (res.statusCode !== 200) throw new Error(`GET session ${res.statusCode} ${res.body}`);
      return (res.json() as { session: AgentSession }).session;
    },
    async logLines(id: string): Promise<string[]> {
      return ((await this.logs(id)).json() as LogsReply).logs;
    },
    /** Starts a test-team session and returns its id. */
    async startTest(
      topic = 'inflation expectations',
      configuration: Record<string, unknown> = {},
    ): Promise<string> {
      const res = await this.start({ teamId: 'runtime-test', input: { topic }, configuration });
      if (res.statusCode !== 201) throw new Error(`start ${res.statusCode} ${res.body}`);
      return (res.json() as SessionActionReply).sessionId;
    },
    /** Polls the session until `done` holds (or fails after `timeoutMs`). */
    async waitFor(
      id: string,
      done: (s: AgentSession) => boolean,
      timeoutMs = 15_000,
    ): Promise<AgentSession> {
      const deadline = Date.now() + timeoutMs;
      let last: AgentSession | undefined;
      while (Date.now() < deadline) {
        last = await this.session(id);
        if (done(last)) return last;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(
        `session ${id} did not reach the expected state; last: ${JSON.stringify({
          status: last?.status,
          phase: last?.phase,
          checkpoint: last?.checkpoint,
          error: last?.error,
        })}`,
      );
    },
  };
}

export const waitingAt = (checkpoint: number) => (s: AgentSession) =>
  s.status === 'waiting_for_input' && s.checkpoint === checkpoint;
export const hasStatus = (status: AgentSession['status']) => (s: AgentSession) =>
  s.status === status;
