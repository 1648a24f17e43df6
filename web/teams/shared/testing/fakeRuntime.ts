import {
  wsSessionUpdateSchema,
  type AgentSession,
  type LogEntry,
  type SessionUpdate,
  type SessionUpdateData,
  type SessionUpdateType,
  type WsSessionUpdateMessage,
} from '../../../../common/agents';
import type { ApiResult } from '../../../api/client';
import type { SessionHttp } from '../useTeamSession';

export const SESSION_ID = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';
export const OTHER_SESSION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const OWNER = '0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e';

export function makeSession(overrides: Partial<AgentSession> = {}): AgentSession {
  return {
    sessionId: SESSION_ID,
    teamId: 'literature',
    agentId: null,
    ownerId: OWNER,
    projectId: null,
    input: {},
    configuration: {},
    status: 'processing',
    phase: 1,
    phaseKey: 'search',
    phaseName: 'Literature Search',
    totalPhases: 4,
    checkpoint: null,
    checkpointData: null,
    results: [],
    feedback: [],
    finalOutputs: null,
    error: null,
    paused: false,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, calls: 0 },
    tokenBudget: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    startedAt: '2025-01-01T00:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}

/**
 * A session-update message as the server publishes it, checked by the shared schema (so a test
 * cannot feed the hook a message the server would never send).
 */
export function makeUpdate<T extends SessionUpdateType>(
  updateType: T,
  data: SessionUpdateData<T>,
  overrides: Partial<
    Pick<SessionUpdate, 'sessionId' | 'teamId' | 'status' | 'phase' | 'checkpoint' | 'timestamp'>
  > = {},
): WsSessionUpdateMessage {
  return wsSessionUpdateSchema.parse({
    type: 'session-update',
    sessionId: SESSION_ID,
    teamId: 'literature',
    status: 'processing',
    phase: 1,
    checkpoint: null,
    timestamp: '2025-01-01T00:00:01.000Z',
    ...overrides,
    updateType,
    data,
  });
}

export function logData(seq: number, message: string): LogEntry {
  return { seq, message, level: 'info', timestamp: '2025-01-01T00:00:01.000Z' };
}

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * The generic session endpoints over an in-memory session the test changes at will. Every
 * call is recorded; `fail` makes the next call to a path prefix answer with an HTTP error.
 */
export class FakeRuntimeHttp implements SessionHttp {
  session: AgentSession = makeSession();
  logs: string[] = [];
  /** What GET /api/agents/sessions?... lists (filtered by the query's teamId and status). */
  listed: AgentSession[] = [];
  readonly calls: Call[] = [];
  private failures = new Map<string, { status: number; message: string }>();

  fail(pathPrefix: string, status: number, message: string): void {
    this.failures.set(pathPrefix, { status, message });
  }

  private failure(path: string): ApiResult<unknown> | undefined {
    for (const [prefix, f] of this.failures) {
      if (path.startsWith(prefix)) {
        this.failures.delete(prefix);
        return {
          success: false,
          error: `HTTP error! status: ${f.status}`,
          message: f.message,
          status: f.status,
        };
      }
    }
    return undefined;
  }

  private list(path: string): ApiResult<unknown> {
    const query = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    const teamId = query.get('teamId');
    const status = query.get('status');
    const sessions = this.listed.filter(
      (s) => (!teamId || s.teamId === teamId) && (!status || s.status === status),
    );
    return { success: true, sessions, total: sessions.length, limit: 20, offset: 0 };
  }

  count(method: Call['method'], pathPrefix: string): number {
    return this.calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix)).length;
  }

  get = async (path: string): Promise<ApiResult<unknown>> => {
    this.calls.push({ method: 'GET', path });
    const failed = this.failure(path);
    if (failed) return failed;
    if (path.startsWith('/api/agents/sessions?')) return this.list(path);
    const logsMatch = /\/logs\?after=(\d+)$/.exec(path);
    if (logsMatch) {
      const after = Number(logsMatch[1]);
      const entries = this.logs.slice(after).map((message, i) => ({
        seq: after + i + 1,
        message,
        level: 'info' as const,
        timestamp: '2025-01-01T00:00:00.000Z',
      }));
      return {
        success: true,
        sessionId: this.session.sessionId,
        logs: entries.map((e) => e.message),
        entries,
        cursor: this.logs.length,
        hasMore: false,
      };
    }
    return { success: true, session: this.session, logs: this.logs };
  };

  post = async (path: string, body?: unknown): Promise<ApiResult<unknown>> => {
    this.calls.push({ method: 'POST', path, body });
    const failed = this.failure(path);
    if (failed) return failed;
    if (path.endsWith('/feedback')) {
      this.session = {
        ...this.session,
        status: 'processing',
        checkpoint: null,
        checkpointData: null,
        updatedAt: new Date(Date.parse(this.session.updatedAt) + 1000).toISOString(),
      };
    } else if (path.endsWith('/reset')) {
      this.session = { ...this.session, status: 'idle', phase: 0 };
    }
    return {
      success: true,
      sessionId: this.session.sessionId,
      status: this.session.status,
      phase: this.session.phase,
      session: this.session,
    };
  };
}
