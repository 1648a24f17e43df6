import { data } from './definition';
import { analysisPhase } from './phases/analysis';
import { loadingPhase } from './phases/loading';
import { profilingPhase } from './phases/profiling';
import { sourcePhase } from './phases/source';
import { dataTeamRoutes } from './routes';
import { dataWorkflow } from './workflow';

/**
 * The Data team: Data Source, Data Loading, Data Profiling (a checkpoint where the researcher
 * may ask for cleaning) and Statistical Analysis; Completed follows. Every phase is computed by
 * the profiling engine; a language model, when configured, only adds an interpretation
 * paragraph at the end.
 */
export const dataTeam = data.build({
  phases: [sourcePhase, loadingPhase, profilingPhase, analysisPhase],
  finalOutputs: (results) => ({
    datasetId: results.profiling?.datasetId ?? results.loading?.datasetId ?? null,
    analysisType: results.analysis?.analysisType ?? null,
  }),
  routes: dataTeamRoutes,
  workflow: dataWorkflow,
});
