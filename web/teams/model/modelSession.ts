import type { SessionStatus } from '../../../common/agents';
import {
  calibrationResultSchema,
  completeResultSchema,
  mathematicalModelResultSchema,
  MODEL_COMPLETED_PHASE,
  MODEL_TEAM_BASE,
  theoryResultSchema,
  type CalibrationResult,
  type CompleteResult,
  type DevelopModelRequest,
  type MathematicalModelResult,
  type ModelStatusReply,
  type TheoryResult,
} from '../../../common/teams/model';
import {
  genericSessionEndpoints,
  snapshotOfSession,
  type SessionSnapshot,
  type TeamSessionEndpoints,
} from '../shared';
import { readPhaseResults } from '../shared/phaseResults';

/**
 * How the Model screen talks to /api/agents/model-team (agent-teams.md §7): develop starts, the
 * status call (it carries the whole log and the three results) is polled every 2 s beside the
 * socket, feedback names the checkpoint, reset is the runtime's.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function snapshotOfStatus(reply: ModelStatusReply): SessionSnapshot {
  const results: Record<number, unknown> = {};
  if (reply.theoryFramework) results[1] = reply.theoryFramework;
  if (reply.mathematicalModel) results[2] = reply.mathematicalModel;
  if (reply.calibrationResults) results[3] = reply.calibrationResults;
  if (reply.completed) results[4] = reply.completed;
  return {
    status: reply.status,
    phase: reply.phase,
    checkpoint: reply.checkpoint,
    checkpointData: reply.checkpointData,
    logs: reply.logs,
    results,
    finalOutputs: reply.session.finalOutputs,
    error: reply.error,
    paused: reply.session.paused,
    updatedAt: reply.session.updatedAt,
    session: reply.session,
  };
}

const generic = genericSessionEndpoints('model');

const readSessionReply = (
  reply: unknown,
): { sessionId: string; snapshot?: SessionSnapshot } | undefined => {
  if (!isObject(reply) || typeof reply.sessionId !== 'string') return undefined;
  const session = isObject(reply.session) ? reply.session : undefined;
  return {
    sessionId: reply.sessionId,
    ...(session
      ? { snapshot: snapshotOfSession(session as Parameters<typeof snapshotOfSession>[0]) }
      : {}),
  };
};

export const modelEndpoints: Partial<TeamSessionEndpoints<DevelopModelRequest>> = {
  start: (input) => ({ path: `${MODEL_TEAM_BASE}/develop`, body: input }),
  readStart: readSessionReply,
  status: (id) => `${MODEL_TEAM_BASE}/status/${encodeURIComponent(id)}`,
  readStatus: (reply) =>
    isObject(reply) && typeof reply.status === 'string' && isObject(reply.session)
      ? snapshotOfStatus(reply as unknown as ModelStatusReply)
      : undefined,
  // The status call carries the whole log.
  logs: undefined,
  readLogs: undefined,
  feedback: (sessionId, feedback, checkpoint) => ({
    path: `${MODEL_TEAM_BASE}/feedback`,
    body: { sessionId, feedback, ...(checkpoint ? { checkpoint } : {}) },
  }),
  readFeedback: (reply) => readSessionReply(reply)?.snapshot,
  reset: generic.reset,
};

export interface ModelResults {
  theory?: TheoryResult;
  model?: MathematicalModelResult;
  calibration?: CalibrationResult;
  complete?: CompleteResult;
}

/** The phase results by phase number (agent-teams.md §4: theory 1, model 2, calibration 3). */
export function readResults(results: Record<number, unknown>): ModelResults {
  return readPhaseResults(results, {
    theory: [1, theoryResultSchema],
    model: [2, mathematicalModelResultSchema],
    calibration: [3, calibrationResultSchema],
    complete: [4, completeResultSchema],
  });
}

/**
 * The stepper's active step (agent-teams.md §4 Model): Configuration until started, the
 * running or reviewed phase while the session works, past Completed once completed.
 */
export function activeStepOf(status: SessionStatus, phase: number): number {
  if (status === 'completed' || phase > MODEL_COMPLETED_PHASE) return MODEL_COMPLETED_PHASE + 1;
  if (status === 'idle' && phase === 0) return 0;
  return Math.max(1, Math.min(phase, MODEL_COMPLETED_PHASE));
}

/** The tab a checkpoint shows (1 Theory, 2 Model, 3 Calibration). */
export function tabForCheckpoint(
  checkpoint: number | null,
): 'Theory' | 'Model' | 'Calibration' | undefined {
  return checkpoint === 1
    ? 'Theory'
    : checkpoint === 2
      ? 'Model'
      : checkpoint === 3
        ? 'Calibration'
        : undefined;
}
