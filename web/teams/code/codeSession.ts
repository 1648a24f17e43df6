import type { SessionStatus } from '../../../common/agents';
import {
  CODE_COMPLETED_PHASE,
  CODE_STEPS,
  CODE_TEAM_BASE,
  generationResultSchema,
  optimizationResultSchema,
  reviewResultSchema,
  testResultSchema,
  type CodeStatusReply,
  type DevelopRequest,
  type GenerationResult,
  type OptimizationResult,
  type ReviewResult,
  type TestResult,
} from '../../../common/teams/code';
import {
  genericSessionEndpoints,
  snapshotOfSession,
  type SessionSnapshot,
  type TeamSessionEndpoints,
} from '../shared';
import { readPhaseResults } from '../shared/phaseResults';

/**
 * How the Code screen talks to /api/agents/code-team (agent-teams.md §7): develop starts, the
 * status call is polled every 2 s (it carries the whole log), reset is the runtime's.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function snapshotOfStatus(reply: CodeStatusReply): SessionSnapshot {
  const results: Record<number, unknown> = {};
  for (const [phase, result] of Object.entries(reply.results)) {
    if (result !== undefined) results[Number(phase)] = result;
  }
  return {
    status: reply.status,
    phase: reply.phase,
    logs: reply.logs,
    results,
    finalOutputs: reply.finalOutputs,
    error: reply.error,
    paused: reply.session.paused,
    updatedAt: reply.session.updatedAt,
    session: reply.session,
  };
}

const generic = genericSessionEndpoints('code');

export const codeEndpoints: Partial<TeamSessionEndpoints<DevelopRequest>> = {
  start: (input) => ({ path: `${CODE_TEAM_BASE}/develop`, body: input }),
  readStart: (reply) => {
    if (!isObject(reply) || typeof reply.sessionId !== 'string') return undefined;
    const session = isObject(reply.session) ? reply.session : undefined;
    return {
      sessionId: reply.sessionId,
      ...(session
        ? { snapshot: snapshotOfSession(session as Parameters<typeof snapshotOfSession>[0]) }
        : {}),
    };
  },
  status: (id) => `${CODE_TEAM_BASE}/status/${encodeURIComponent(id)}`,
  readStatus: (reply) =>
    isObject(reply) && isObject(reply.results) && typeof reply.status === 'string'
      ? snapshotOfStatus(reply as unknown as CodeStatusReply)
      : undefined,
  // The status call carries the whole log.
  logs: undefined,
  readLogs: undefined,
  reset: generic.reset,
};

/** The phase results as the screen reads them, each checked against its schema. */
export interface CodeResults {
  generation?: GenerationResult;
  review?: ReviewResult;
  optimization?: OptimizationResult;
  tests?: TestResult;
}

export function readResults(results: Record<number, unknown>): CodeResults {
  return readPhaseResults(results, {
    generation: [1, generationResultSchema],
    review: [2, reviewResultSchema],
    optimization: [3, optimizationResultSchema],
    tests: [4, testResultSchema],
  });
}

/**
 * The stepper's active step (agent-teams.md §4 Code): Configuration until started, the running
 * phase's step while processing, past Completed (everything checked) once completed.
 */
export function activeStepOf(status: SessionStatus, phase: number): number {
  if (status === 'completed' || phase >= CODE_COMPLETED_PHASE) return CODE_STEPS.length;
  if (status === 'idle' && phase === 0) return 0;
  return Math.max(1, Math.min(phase, CODE_COMPLETED_PHASE - 1));
}

/** The code a finished session ends with: the tested code, else the newest version. */
export function finalCode(r: CodeResults): string | undefined {
  return r.tests?.code_under_test ?? r.optimization?.optimized_code ?? r.generation?.main_code;
}
