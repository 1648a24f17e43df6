import type { AgentSession, SessionStatus, SessionUpdate } from '../../../common/agents';

/**
 * The live state of one team session on a screen, and the pure rules that merge the three
 * sources into it: the replies of the team's calls, polled snapshots, and real-time
 * session-update messages.
 */

/** A session's state as a team's status call reports it, in one shape for every team. */
export interface SessionSnapshot {
  status: SessionStatus;
  phase: number;
  checkpoint?: number | null;
  checkpointData?: unknown;
  /** The whole log, line n at index n-1. */
  logs?: string[];
  /** Results of finished phases by phase number. */
  results?: Record<number, unknown>;
  finalOutputs?: unknown;
  error?: string | null;
  paused?: boolean;
  /** When the server last changed the session (orders snapshots against updates). */
  updatedAt?: string;
  /** The reply's session as the server sent it, for screens that read team-specific fields. */
  session?: unknown;
}

/** A log line with its 1-based sequence number in the session. */
export interface LogLine {
  seq: number;
  message: string;
}

export interface TeamSessionState {
  sessionId: string | undefined;
  status: SessionStatus;
  phase: number;
  checkpoint: number | null;
  checkpointData: unknown;
  /** Sparse while a line is missing: line n at index n-1. */
  logSlots: Array<string | undefined>;
  results: Record<number, unknown>;
  finalOutputs: unknown;
  error: string | undefined;
  paused: boolean;
  session: unknown;
  /** Time of the newest state change applied (ISO); older snapshots do not undo it. */
  stateAt: string | undefined;
  /** The state came from the server (a reply, a snapshot or an update), not from defaults. */
  synced: boolean;
}

export const initialSessionState: TeamSessionState = {
  sessionId: undefined,
  status: 'idle',
  phase: 0,
  checkpoint: null,
  checkpointData: null,
  logSlots: [],
  results: {},
  finalOutputs: null,
  error: undefined,
  paused: false,
  session: undefined,
  stateAt: undefined,
  synced: false,
};

export type SessionAction =
  /** `started`: the screen just started it (processing at phase 1 until the server says more). */
  | { type: 'attach'; sessionId: string; snapshot?: SessionSnapshot; started?: boolean }
  | { type: 'snapshot'; sessionId: string; snapshot: SessionSnapshot }
  | { type: 'logs'; sessionId: string; lines: LogLine[] }
  | { type: 'update'; update: SessionUpdate }
  /**
   * The feedback call succeeded. `sentAt` is the state's `stateAt` when the call went out: if a
   * newer state arrived over the socket meanwhile (the re-run already reached its next
   * checkpoint), the reply must not move the screen back to processing.
   */
  | { type: 'feedback-sent'; sessionId: string; snapshot?: SessionSnapshot; sentAt?: string }
  | { type: 'failed'; error: string; status?: SessionStatus }
  | { type: 'reset' };

/** Statuses in which nothing changes without the user, so polling stops. */
export const SETTLED_STATUSES: readonly SessionStatus[] = ['completed', 'error', 'idle'];

function isOlder(at: string | undefined, than: string | undefined): boolean {
  if (!at || !than) return false;
  const a = Date.parse(at);
  const b = Date.parse(than);
  return Number.isFinite(a) && Number.isFinite(b) && a < b;
}

export function mergeLogs(
  slots: Array<string | undefined>,
  lines: LogLine[],
): Array<string | undefined> {
  let next: Array<string | undefined> | undefined;
  for (const { seq, message } of lines) {
    if (!Number.isInteger(seq) || seq < 1) continue;
    const current = next ?? slots;
    if (current[seq - 1] === message) continue;
    next ??= slots.slice();
    next[seq - 1] = message;
  }
  return next ?? slots;
}

/** The log lines received so far, in order (a missing line is skipped until it arrives). */
export function logLines(slots: Array<string | undefined>): string[] {
  return slots.filter((l): l is string => l !== undefined);
}

/** How many lines from the start are known: poll for lines after this one. */
export function contiguousLogCount(slots: Array<string | undefined>): number {
  // A loop, not indexOf: indexOf skips the holes of a sparse array.
  for (let i = 0; i < slots.length; i++) if (slots[i] === undefined) return i;
  return slots.length;
}

function applySnapshot(state: TeamSessionState, snapshot: SessionSnapshot): TeamSessionState {
  const logSlots = snapshot.logs
    ? mergeLogs(
        state.logSlots,
        snapshot.logs.map((message, i) => ({ seq: i + 1, message })),
      )
    : state.logSlots;
  const results = snapshot.results ? { ...state.results, ...snapshot.results } : state.results;
  // A snapshot read before the newest real-time state change must not undo it; its logs and
  // results only add, so they are kept either way. With the same status it undoes nothing and
  // brings what updates do not carry (paused, checkpoint data, timestamps).
  if (isOlder(snapshot.updatedAt, state.stateAt) && snapshot.status !== state.status) {
    return { ...state, logSlots, results };
  }
  return {
    ...state,
    synced: true,
    status: snapshot.status,
    phase: snapshot.phase,
    checkpoint:
      snapshot.checkpoint !== undefined
        ? snapshot.checkpoint
        : snapshot.status === 'waiting_for_input'
          ? state.checkpoint
          : null,
    checkpointData:
      snapshot.checkpointData !== undefined
        ? snapshot.checkpointData
        : snapshot.status === 'waiting_for_input'
          ? state.checkpointData
          : null,
    logSlots,
    results,
    finalOutputs: snapshot.finalOutputs !== undefined ? snapshot.finalOutputs : state.finalOutputs,
    error:
      snapshot.status === 'error'
        ? (snapshot.error ?? state.error ?? undefined)
        : (snapshot.error ?? undefined),
    paused: snapshot.paused ?? false,
    session: snapshot.session ?? state.session,
    stateAt: snapshot.updatedAt ?? state.stateAt,
  };
}

function applyUpdate(state: TeamSessionState, update: SessionUpdate): TeamSessionState {
  const stale = isOlder(update.timestamp, state.stateAt);
  let next: TeamSessionState = state;

  // What each update type adds, whatever its age.
  switch (update.updateType) {
    case 'log_update':
      if (update.data) {
        const { seq, message } = update.data;
        next = { ...next, logSlots: mergeLogs(next.logSlots, [{ seq, message }]) };
      }
      break;
    case 'phase_completed':
      if (update.data) {
        const { phase, result } = update.data;
        next = { ...next, results: { ...next.results, [phase]: result } };
      }
      break;
    default:
      break;
  }
  if (stale) return next;

  // The state the update leaves the session in (the server sends it with every update). Only a
  // change of state dates the state: a log line written after the change is not newer state.
  const changed =
    update.status !== next.status ||
    update.phase !== next.phase ||
    update.checkpoint !== next.checkpoint ||
    (update.updateType !== 'log_update' && update.updateType !== 'phase_completed');
  next = {
    ...next,
    status: update.status,
    phase: update.phase,
    checkpoint: update.checkpoint,
    stateAt: changed ? update.timestamp : next.stateAt,
    synced: true,
  };
  switch (update.updateType) {
    case 'checkpoint_reached':
      next = {
        ...next,
        status: 'waiting_for_input',
        checkpoint: update.data?.checkpoint ?? update.checkpoint,
        checkpointData: update.data?.checkpointData ?? null,
        paused: false,
      };
      break;
    case 'feedback_submitted':
      next = { ...next, status: 'processing', checkpoint: null, checkpointData: null };
      break;
    case 'process_completed':
      next = {
        ...next,
        status: 'completed',
        checkpoint: null,
        checkpointData: null,
        finalOutputs: update.data?.finalOutputs ?? next.finalOutputs,
      };
      break;
    case 'process_error':
    case 'error':
      next = {
        ...next,
        status: 'error',
        error: update.data?.error || (next.error ?? ''),
      };
      break;
    default:
      break;
  }
  return next;
}

export function sessionReducer(state: TeamSessionState, action: SessionAction): TeamSessionState {
  switch (action.type) {
    case 'attach': {
      // A start moves the session to processing at phase 1. A session followed from
      // elsewhere stays idle and unsynced until its first read.
      const base: TeamSessionState = {
        ...initialSessionState,
        sessionId: action.sessionId,
        ...(action.started ? { status: 'processing' as const, phase: 1, synced: true } : {}),
      };
      return action.snapshot ? applySnapshot(base, action.snapshot) : base;
    }
    case 'snapshot':
      if (action.sessionId !== state.sessionId) return state;
      return applySnapshot(state, action.snapshot);
    case 'logs':
      if (action.sessionId !== state.sessionId) return state;
      return { ...state, logSlots: mergeLogs(state.logSlots, action.lines) };
    case 'update':
      // An update is ignored unless its sessionId is the current session's.
      if (!state.sessionId || action.update.sessionId !== state.sessionId) return state;
      return applyUpdate(state, action.update);
    case 'feedback-sent': {
      if (action.sessionId !== state.sessionId) return state;
      // The session moved on while the call was in flight: what arrived since is newer than the
      // reply. (Otherwise polls of the new checkpoint, dated before the update that announced it,
      // would be refused as older, and the screen would wait for ever.)
      if ('sentAt' in action && action.sentAt !== state.stateAt) {
        return { ...state, error: undefined };
      }
      const sent: TeamSessionState = {
        ...state,
        status: 'processing',
        checkpoint: null,
        checkpointData: null,
        error: undefined,
      };
      return action.snapshot ? applySnapshot(sent, action.snapshot) : sent;
    }
    case 'failed':
      return { ...state, error: action.error, status: action.status ?? state.status };
    case 'reset':
      return initialSessionState;
  }
}

/** The runtime's session record as a snapshot (generic endpoints and v2 API). */
export function snapshotOfSession(session: AgentSession, logs?: string[]): SessionSnapshot {
  const results: Record<number, unknown> = {};
  for (const r of session.results) results[r.phase] = r.result;
  return {
    status: session.status,
    phase: session.phase,
    checkpoint: session.checkpoint,
    checkpointData: session.checkpointData,
    results,
    finalOutputs: session.finalOutputs,
    error: session.error,
    paused: session.paused,
    updatedAt: session.updatedAt,
    session,
    ...(logs ? { logs } : {}),
  };
}
