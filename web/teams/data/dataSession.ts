import type { SessionStatus } from '../../../common/agents';
import {
  DATA_COMPLETED_PHASE,
  DATA_PHASE_TABLE,
  DATA_TEAM_BASE,
  DATA_TEAM_ID,
  dataInputSchema,
  dataStatusReplySchema,
  profilingCheckpointSchema,
  type AnalysisType,
  type ApiSource,
  type DataResults,
  type DataSourceKind,
  type ProfilingCheckpoint,
} from '../../../common/teams/data';
import { parseOrUndefined, readPhaseResults } from '../../../common/teams/shared';
import { teamRouteEndpoints } from '../shared';
import type { SessionInputs } from '../shared/useSessionInput';

/**
 * How the Data screen talks to /api/agents/data-team: fetch-dataset starts an API source,
 * analyze a URL or a catalog dataset (the upload goes through /upload before the hook follows
 * the session); the status call carries the whole log and is polled every 2 s beside the socket;
 * feedback goes to the team's route, reset is the runtime's.
 */

/** The missing-value tokens chosen on the screen; absent: the server's defaults. */
type Tokens = { missingTokens?: string[] };

export type DataStart =
  | ({ kind: 'api'; source: ApiSource; datasetId: string; analysisType: AnalysisType } & Tokens)
  | ({ kind: 'url'; url: string; analysisType: AnalysisType } & Tokens)
  | { kind: 'catalog'; datasetId: string; analysisType: AnalysisType };

const tokensOf = (input: Tokens) =>
  input.missingTokens ? { missingTokens: input.missingTokens } : {};

export function dataStartRequest(input: DataStart): { path: string; body: unknown } {
  switch (input.kind) {
    case 'api':
      return {
        path: `${DATA_TEAM_BASE}/fetch-dataset`,
        body: {
          source: input.source,
          datasetId: input.datasetId,
          analysisType: input.analysisType,
          ...tokensOf(input),
        },
      };
    case 'url':
      return {
        path: `${DATA_TEAM_BASE}/analyze`,
        body: {
          dataSource: 'url',
          analysisType: input.analysisType,
          config: { datasetId: input.url, ...tokensOf(input) },
        },
      };
    case 'catalog':
      return {
        path: `${DATA_TEAM_BASE}/analyze`,
        body: {
          dataSource: 'catalog',
          analysisType: input.analysisType,
          config: { datasetId: input.datasetId },
        },
      };
  }
}

/** The stored datasets the screen's catalog choice lists (the project's first). */
export function catalogDatasetsPath(projectId: string | undefined): string {
  return `${DATA_TEAM_BASE}/catalog-datasets${projectId ? `?projectId=${encodeURIComponent(projectId)}` : ''}`;
}

export const dataEndpoints = teamRouteEndpoints<DataStart>({
  teamId: DATA_TEAM_ID,
  base: DATA_TEAM_BASE,
  start: dataStartRequest,
  statusSchema: dataStatusReplySchema,
  feedback: 'plain',
});

/** The phase results by phase number, each checked against its phase's schema. */
export function readResults(results: Record<number, unknown>): DataResults {
  return readPhaseResults(DATA_PHASE_TABLE, results);
}

export function readCheckpoint(data: unknown): ProfilingCheckpoint | undefined {
  return parseOrUndefined(profilingCheckpointSchema, data);
}

/**
 * The stepper's step: Data Source until started and while phase 1 runs, then the phase running
 * or reviewed; Completed marks every step done.
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

/**
 * The start form of a session reopened on the screen: its source, the dataset (API id, address or
 * catalog dataset), the analysis and the missing-value tokens; an upload names its file (a file
 * field cannot be given one back). Undefined when the input is not the Data team's.
 */
export interface DataForm {
  dataSource: DataSourceKind;
  analysisType: AnalysisType;
  apiSource?: ApiSource;
  datasetId?: string;
  url?: string;
  catalogDatasetId?: string;
  fileName?: string;
  missingTokens?: string[];
}

export function dataFormOf(inputs: SessionInputs): DataForm | undefined {
  const parsed = dataInputSchema.safeParse(inputs.input);
  if (!parsed.success) return undefined;
  const i = parsed.data;
  const id = i.datasetId ?? '';
  return {
    dataSource: i.dataSource,
    analysisType: i.analysisType,
    ...(i.dataSource === 'api' ? { apiSource: i.apiSource ?? 'world_bank', datasetId: id } : {}),
    ...(i.dataSource === 'url' ? { url: id } : {}),
    ...(i.dataSource === 'catalog' ? { catalogDatasetId: id } : {}),
    ...(i.dataSource === 'upload' && i.fileName ? { fileName: i.fileName } : {}),
    ...(i.missingTokens ? { missingTokens: [...i.missingTokens] } : {}),
  };
}
