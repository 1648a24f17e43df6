import type { SessionStatus } from '../../../common/agents';
import {
  analysisPhaseResultSchema,
  DATA_COMPLETED_PHASE,
  DATA_TEAM_BASE,
  loadingResultSchema,
  profilingCheckpointSchema,
  profilingResultSchema,
  sourceResultSchema,
  type AnalysisPhaseResult,
  type AnalysisType,
  type ApiSource,
  type DataStatusReply,
  type LoadingResult,
  type ProfilingCheckpoint,
  type ProfilingResult,
  type SourceResult,
} from '../../../common/teams/data';
import {
  genericSessionEndpoints,
  snapshotOfSession,
  type SessionSnapshot,
  type TeamSessionEndpoints,
} from '../shared';
import { parseOrUndefined, readPhaseResults } from '../shared/phaseResults';

/**
 * How the Data screen talks to /api/agents/data-team (agent-teams.md §7): fetch-dataset starts
 * an API source, analyze a URL (the upload goes through /upload before the hook follows the
 * session); the status call carries the whole log and is polled every 2 s beside the socket.
 */

export type DataStart =
  | { kind: 'api'; source: ApiSource; datasetId: string; analysisType: AnalysisType }
  | { kind: 'url'; url: string; analysisType: AnalysisType };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

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

const generic = genericSessionEndpoints('data');

export const dataEndpoints: Partial<TeamSessionEndpoints<DataStart>> = {
  start: (input) =>
    input.kind === 'api'
      ? {
          path: `${DATA_TEAM_BASE}/fetch-dataset`,
          body: {
            source: input.source,
            datasetId: input.datasetId,
            analysisType: input.analysisType,
          },
        }
      : {
          path: `${DATA_TEAM_BASE}/analyze`,
          body: {
            dataSource: 'url',
            analysisType: input.analysisType,
            config: { datasetId: input.url },
          },
        },
  readStart: readSessionReply,
  status: (id) => `${DATA_TEAM_BASE}/status/${encodeURIComponent(id)}`,
  readStatus: (reply) => {
    if (!isObject(reply) || typeof reply.status !== 'string' || !isObject(reply.session))
      return undefined;
    const r = reply as unknown as DataStatusReply;
    return snapshotOfSession(r.session, r.logs);
  },
  // The status call carries the whole log.
  logs: undefined,
  readLogs: undefined,
  feedback: (sessionId, feedback) => ({
    path: `${DATA_TEAM_BASE}/feedback`,
    body: { sessionId, feedback },
  }),
  readFeedback: (reply) => readSessionReply(reply)?.snapshot,
  reset: generic.reset,
};

export interface DataResults {
  source?: SourceResult;
  loading?: LoadingResult;
  profiling?: ProfilingResult;
  analysis?: AnalysisPhaseResult;
}

/** The phase results by phase number (1 source, 2 loading, 3 profiling, 4 analysis). */
export function readResults(results: Record<number, unknown>): DataResults {
  return readPhaseResults(results, {
    source: [1, sourceResultSchema],
    loading: [2, loadingResultSchema],
    profiling: [3, profilingResultSchema],
    analysis: [4, analysisPhaseResultSchema],
  });
}

export function readCheckpoint(data: unknown): ProfilingCheckpoint | undefined {
  return parseOrUndefined(profilingCheckpointSchema, data);
}

/**
 * The stepper's step (agent-teams.md §4 Data): Data Source until started and while phase 1
 * runs, then the phase running or reviewed; Completed (phase 4) marks every step done.
 */
export function activeStepOf(status: SessionStatus, phase: number): number {
  if (status === 'completed') return DATA_COMPLETED_PHASE + 1;
  return Math.max(0, Math.min(phase - 1, DATA_COMPLETED_PHASE - 1));
}

/** Everything the JSON download holds: computed results only, as the server sent them. */
export function downloadPayload(results: DataResults, sessionId: string | undefined): unknown {
  return {
    sessionId: sessionId ?? null,
    source: results.source ?? null,
    dataset: results.loading ?? null,
    profile: results.profiling?.profile ?? null,
    cleaning: results.profiling?.cleaning ?? null,
    analysis: results.analysis?.analysis ?? null,
    visualizations: results.analysis?.visualizations ?? [],
    interpretation: results.analysis?.interpretation
      ? {
          text: results.analysis.interpretation,
          note: "The language model's reading of the computed results.",
        }
      : null,
  };
}
