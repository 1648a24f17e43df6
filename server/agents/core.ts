import type { AgentSession, LogEntry, SessionUpdate, SessionUpdateType } from '../../common/agents';
import type { AgentSessionRow } from '../db/schema/agents';
import type { EventBus } from '../platform/events';
import { MAX_EVENT_PAYLOAD_BYTES } from '../platform/events';
import type { NewNotification } from '../platform/notify';
import type { ModelLayer } from './llm/model-layer';
import type { PhaseQueue } from './queue';
import type { TeamRegistry } from './registry';
import type { MachineState } from './state-machine';
import type { SessionStore } from './store';
import type { AppContext } from '../context';
import type { ServiceHost } from './kit/services';

/** The application services the runtime itself uses (never handed to phases). */
export type RuntimeAppContext = Omit<AppContext, 'agents'>;

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

export interface ControlMessage {
  sessionId: string;
  reason: 'cancel' | 'pause' | 'reset';
}

export interface RuntimeLimits {
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
}

export function machineState(row: AgentSessionRow): MachineState {
  return {
    status: row.status,
    phase: row.phase,
    checkpoint: row.checkpoint,
    paused: row.paused,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSession(row: AgentSessionRow): AgentSession {
  return {
    sessionId: row.id,
    teamId: row.teamId,
    agentId: row.agentId,
    ownerId: row.ownerId,
    projectId: row.projectId,
    input: row.input,
    configuration: row.configuration,
    status: row.status,
    phase: row.phase,
    phaseKey: row.phase > 0 ? (row.plan[row.phase - 1] ?? null) : null,
    phaseName: null,
    totalPhases: row.plan.length,
    checkpoint: row.checkpoint,
    checkpointData: row.checkpointData ?? null,
    results: row.results,
    feedback: row.feedback,
    finalOutputs: row.finalOutputs ?? null,
    error: row.error,
    paused: row.paused,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      totalTokens: row.inputTokens + row.outputTokens,
      costUsd: row.costUsd,
      calls: row.llmCalls,
    },
    tokenBudget: row.tokenBudget,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
  };
}

/** Adds the phase's display name, which lives in the team definition. */
export function describeSession(core: RuntimeCore, row: AgentSessionRow): AgentSession {
  const session = toSession(row);
  if (session.phaseKey) {
    const team = core.registry.team(row.teamId);
    session.phaseName = team?.phases.find((p) => p.key === session.phaseKey)?.name ?? null;
  }
  return session;
}

/** Publishes one update about a session, after the write it describes. */
export async function publishUpdate(
  core: RuntimeCore,
  row: AgentSessionRow,
  updateType: SessionUpdateType,
  data: unknown,
): Promise<void> {
  const update: SessionUpdate = {
    sessionId: row.id,
    teamId: row.teamId,
    updateType,
    data,
    status: row.status,
    phase: row.phase,
    checkpoint: row.checkpoint,
    timestamp: new Date().toISOString(),
  };
  let envelope: UpdateEnvelope = { ownerId: row.ownerId, update };
  if (Buffer.byteLength(JSON.stringify(envelope)) > MAX_EVENT_PAYLOAD_BYTES - 100) {
    envelope = {
      ownerId: row.ownerId,
      update: { ...update, data: null },
      dataOmitted: true,
      ...(updateType === 'log_update' ? { logSeq: (data as LogEntry).seq } : {}),
    };
  }
  try {
    await core.bus.publish(CHANNELS.update, envelope);
  } catch (err) {
    // The write is done and polling shows it; a lost real-time message must not fail the step.
    core.app.log.warn(
      { err: (err as Error).message, sessionId: row.id },
      'could not publish update',
    );
  }
}

/**
 * Appends a log line and publishes it. The row given only supplies ids and the state that goes
 * with the update.
 */
export async function writeLog(
  core: RuntimeCore,
  row: AgentSessionRow,
  message: string,
  level: LogEntry['level'] = 'info',
): Promise<LogEntry | undefined> {
  const entry = await core.store.appendLog(row.id, message, level);
  if (entry) await publishUpdate(core, row, 'log_update', entry);
  return entry;
}

/** Records an in-app notification; a failure is logged, never thrown into the session. */
export async function notifyOwner(
  core: RuntimeCore,
  row: AgentSessionRow,
  notification: NewNotification,
): Promise<void> {
  try {
    await core.app.notify(row.ownerId, notification);
  } catch (err) {
    core.app.log.warn({ err: (err as Error).message, sessionId: row.id }, 'could not notify owner');
  }
}

export function sessionLink(core: RuntimeCore, row: AgentSessionRow): string {
  const team = core.registry.team(row.teamId);
  return team?.link?.(row.id) ?? `/app/${row.teamId}-team?session=${row.id}`;
}

export function teamName(core: RuntimeCore, row: AgentSessionRow): string {
  return core.registry.team(row.teamId)?.name ?? row.teamId;
}

/** Queues the job for the session's current step and wakes idle workers everywhere. */
export async function enqueuePhase(
  core: RuntimeCore,
  row: Pick<AgentSessionRow, 'id' | 'step'>,
): Promise<void> {
  await core.queue.enqueue({ sessionId: row.id, step: row.step });
  try {
    await core.bus.publish(CHANNELS.jobs, {});
  } catch {
    // Workers poll anyway.
  }
}

/** Reads back the data of an update that was too large to travel on the bus. */
export async function hydrateUpdate(
  core: RuntimeCore,
  envelope: UpdateEnvelope,
): Promise<SessionUpdate> {
  if (!envelope.dataOmitted) return envelope.update;
  const u = envelope.update;
  if (u.updateType === 'log_update' && envelope.logSeq !== undefined) {
    return { ...u, data: (await core.store.readLog(u.sessionId, envelope.logSeq)) ?? null };
  }
  const row = await core.store.get(u.sessionId);
  if (!row) return u;
  switch (u.updateType) {
    case 'checkpoint_reached':
      return {
        ...u,
        data: { phase: u.phase, checkpoint: u.checkpoint, checkpointData: row.checkpointData },
      };
    case 'phase_completed': {
      const r = row.results.find((x) => x.phase === u.phase);
      return {
        ...u,
        data: r ? { phase: r.phase, key: r.key, name: r.name, result: r.result } : null,
      };
    }
    case 'process_completed':
      return { ...u, data: { finalOutputs: row.finalOutputs } };
    case 'feedback_submitted': {
      const f = row.feedback[row.feedback.length - 1];
      return { ...u, data: f ?? null };
    }
    default:
      return { ...u, data: { error: row.error ?? 'Unknown error', phase: u.phase } };
  }
}
