import type { SessionUpdate } from '../../../common/agents';
import type { AppContext } from '../../context';
import type { EventBus } from '../../platform/events';
import type { ServiceHost } from '../../platform/services';
import type { ModelLayer } from '../llm/model-types';
import type { PhaseQueue } from './queue';
import type { TeamRegistry } from './registry';
import type { SessionStore } from './store';

/**
 * What the session service, the runner and the WebSocket hub share: the runtime's parts, its
 * limits and the names of its bus channels and messages. Types and constants only.
 */

/** The application services the runtime itself uses (never handed to phases). */
type RuntimeAppContext = Omit<AppContext, 'agents'>;

/** Bus channels of the runtime. */
export const CHANNELS = {
  /** A session update for the WebSocket hubs of every process. */
  update: 'agent_session_update',
  /** Stop a running phase (cancel, pause, reset): the process running it aborts it. */
  control: 'agent_session_control',
  /** A phase job was queued: idle workers fetch now instead of at their next poll. */
  jobs: 'agent_jobs',
} as const;

/** What travels on CHANNELS.update. A large update goes without data; receivers read it back. */
export interface UpdateEnvelope {
  ownerId: string;
  update: SessionUpdate;
  /** Set when `data` was left out to stay under the notification size limit. */
  dataOmitted?: true;
  /** For an omitted log_update: the line to read. */
  logSeq?: number;
}

/** What travels on CHANNELS.jobs: the runtime that queued (it woke its own workers already). */
export interface JobsMessage {
  from: string;
}

export interface ControlMessage {
  sessionId: string;
  reason: 'cancel' | 'pause' | 'reset';
}

interface RuntimeLimits {
  maxConcurrentSessions: number;
  /** 0 = no limit. */
  sessionTokenBudget: number;
  phaseTimeoutMs: number;
  leaseMs: number;
}

/** Everything the service, the runner and the hub share. */
export interface RuntimeCore {
  app: RuntimeAppContext;
  /** This process's connectors and engines, built once from their config fragments. */
  services: ServiceHost;
  store: SessionStore;
  registry: TeamRegistry;
  bus: EventBus;
  queue: PhaseQueue;
  models: ModelLayer;
  limits: RuntimeLimits;
  /** This runtime among those on the bus (several may share a process, as in tests). */
  instance: string;
}
