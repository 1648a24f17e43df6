import type {
  AgentControlAction,
  AgentSession,
  LogEntry,
  SessionStatus,
  TeamInfo,
} from '../../../common/agents';
import type { UserRole } from '../../../common/constants';
import type { Api } from '../../platform/api';
import type { ModelLayer } from '../llm/model-types';

/**
 * The agent runtime's public types, in a file that imports no implementation: the rest of the
 * server (context.ts, modules) and the teams depend on these, never on service.ts or
 * runtime-core.ts, so there is no import cycle between the application context and the runtime.
 */

/** Filters of a session list. */
export interface SessionFilter {
  ownerId?: string;
  teamId?: string;
  agentId?: string;
  status?: SessionStatus;
  projectId?: string;
}

/** Who acts on a session. Only the owner and admins can see or drive one. */
export interface SessionActor {
  id: string;
  role: UserRole;
}

export interface StartSessionInput {
  teamId: string;
  /** A v2 agent of that team; runs the agent's phases. */
  agentId?: string;
  input?: Record<string, unknown>;
  configuration?: Record<string, unknown>;
  projectId?: string;
  /** Start an existing own session again (it must be idle after a reset). */
  sessionId?: string;
  /**
   * The id the new session gets. A workflow writes it into its step before starting the
   * session, so a start cut short by a dying process is recognised and made again.
   */
  presetId?: string;
}

export interface LogsPage {
  entries: LogEntry[];
  logs: string[];
  cursor: number;
  hasMore: boolean;
}

export interface ListPage {
  limit: number;
  offset: number;
}

/** The session operations team adapters and the generic and v2 routes share. */
export interface SessionService {
  start(actor: SessionActor, request: StartSessionInput): Promise<AgentSession>;
  get(actor: SessionActor, sessionId: string): Promise<AgentSession>;
  logs(
    actor: SessionActor,
    sessionId: string,
    opts?: { after?: number; limit?: number },
  ): Promise<LogsPage>;
  list(
    actor: SessionActor,
    filter: Omit<SessionFilter, 'ownerId'>,
    page: ListPage,
  ): Promise<{ sessions: AgentSession[]; total: number }>;
  feedback(actor: SessionActor, sessionId: string, feedback: string): Promise<AgentSession>;
  reset(actor: SessionActor, sessionId: string): Promise<AgentSession>;
  cancel(actor: SessionActor, sessionId: string): Promise<AgentSession>;
  pause(actor: SessionActor, sessionId: string): Promise<AgentSession>;
  resume(actor: SessionActor, sessionId: string): Promise<AgentSession>;
  control(
    actor: SessionActor,
    sessionId: string,
    action: AgentControlAction,
  ): Promise<AgentSession>;
  /** True when the actor may see the session (owner or admin). */
  canSee(actor: SessionActor, sessionId: string): Promise<boolean>;
}

/**
 * The agent runtime as the rest of the server sees it (server/agents provides it): the job
 * queue's state, which teams can run, its routes and WebSocket channel, and a clean stop.
 */
export interface AgentRuntime {
  queueState(): 'up' | 'down' | 'not-started';
  /** Phase jobs waiting to run in the shared queue (the operator's metrics); null if unknown. */
  queueDepth(): Promise<number | null>;
  /** WebSocket clients connected to this process (the operator's metrics). */
  socketClients(): number;
  /**
   * A user's access changed (signed out, password changed, suspended, role changed), after the
   * change is written: every process's socket hub closes that user's sockets whose token is now
   * too old, at once. Never throws (a failure is logged; the heartbeat's check is the fallback).
   */
  accessRevoked(userId: string): Promise<void>;
  /** The registered teams as GET /api/agents/teams lists them (label, stage, availability). */
  teams(): TeamInfo[];
  /** Registers the runtime's HTTP routes, the teams' routes and the /ws channel. */
  registerRoutes(app: Api): Promise<void>;
  stop(): Promise<void>;
  /**
   * Session operations with the owner/admin checks inside (404 for others' sessions): what each
   * team's spec routes (e.g. /api/literature-team/start) call as thin adapters.
   */
  sessions: SessionService;
  /** The model layer every model call goes through (usage recorded per call). */
  models: ModelLayer;
  /**
   * A catalog dataset was deleted: the teams drop what they keep for it (the Data team's original
   * and Parquet files). A team's failure is logged, never thrown: the entry is already gone.
   */
  datasetRemoved(datasetId: string): Promise<void>;
}
