import {
  analysisPhaseResultSchema,
  DATA_PHASES,
  DATA_TEAM_ID,
  dataConfigurationSchema,
  dataInputSchema,
  loadingResultSchema,
  profilingResultSchema,
  sourceResultSchema,
} from '../../../../common/teams/data';
import { profilingService, type ProfilingService } from '../../../engines/profiling/service';
import { dataSourcesService, type DataSourcesService } from '../../../sources/data-sources-service';
import { defineTeam, type PhaseLog, type Workspace } from '../../kit';
import {
  profilingCheckpoint,
  runAnalysis,
  runLoading,
  runProfiling,
  runSource,
  type PhaseDeps,
} from './phases';
import { dataTeamRoutes } from './routes';

/**
 * The Data team (agent-teams.md §4 Data): Data Source, Data Loading, Data Profiling (a
 * checkpoint where the researcher may ask for cleaning) and Statistical Analysis; Completed
 * follows. Every phase is computed by the profiling engine; a language model, when configured,
 * only adds an interpretation paragraph at the end.
 */
const team = defineTeam({
  id: DATA_TEAM_ID,
  name: 'Data Team',
  description:
    'Profiles and analyses a dataset that is uploaded, fetched from a public API, or taken from a URL.',
  input: dataInputSchema,
  configuration: dataConfigurationSchema,
  results: {
    source: sourceResultSchema,
    loading: loadingResultSchema,
    profiling: profilingResultSchema,
    analysis: analysisPhaseResultSchema,
  },
  services: { profiling: profilingService, sources: dataSourcesService },
});

const info = (key: (typeof DATA_PHASES)[number]['key']) => DATA_PHASES.find((p) => p.key === key)!;

const deps = (ctx: {
  session: { id: string };
  services: { profiling: ProfilingService; sources: DataSourcesService };
  workspace: Workspace;
  log: PhaseLog;
  signal: AbortSignal;
}): PhaseDeps => ({
  sessionId: ctx.session.id,
  profiling: ctx.services.profiling,
  sources: ctx.services.sources,
  workspace: ctx.workspace,
  log: ctx.log,
  signal: ctx.signal,
});

const source = team.phase('source', {
  name: info('source').name,
  description:
    'Receives the upload, or fetches the dataset from the API or the URL, and checks its content.',
  timeoutSeconds: 600,
  run: (ctx) => runSource(deps(ctx), ctx.input),
});

const loading = team.phase('loading', {
  name: info('loading').name,
  description:
    'Loads the file into DuckDB, writes its Parquet copy and registers it in the datasets catalog.',
  timeoutSeconds: 600,
  run: (ctx) => runLoading(deps(ctx), ctx.resultOf('source')),
});

const profiling = team.phase('profiling', {
  name: info('profiling').name,
  description:
    'Profiles every column, correlations, the time index and alerts; the researcher reviews it and may ask for cleaning.',
  checkpoint: { title: info('profiling').checkpoint!, data: (r) => profilingCheckpoint(r) },
  timeoutSeconds: 600,
  run: (ctx) =>
    runProfiling(
      deps(ctx),
      ctx.resultOf('loading'),
      ctx.revision ? { feedback: ctx.revision.feedback } : null,
    ),
});

const analysis = team.phase('analysis', {
  name: info('analysis').name,
  description:
    'Runs the chosen analysis and draws the charts; a configured model adds an interpretation.',
  timeoutSeconds: 600,
  run: (ctx) =>
    runAnalysis(deps(ctx), ctx.input, ctx.resultOf('profiling'), {
      interpret: ctx.configuration.interpret,
      generateText: async (p) => (await ctx.llm.generateText(p)).text,
    }),
});

export const dataTeam = team.build({
  phases: [source, loading, profiling, analysis],
  finalOutputs: (results) => ({
    datasetId: results.profiling?.datasetId ?? results.loading?.datasetId ?? null,
    analysisType: results.analysis?.analysisType ?? null,
  }),
  routes: dataTeamRoutes,
});
