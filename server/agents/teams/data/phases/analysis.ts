import {
  dataPhaseRow,
  type AnalysisPhaseResult,
  type DataInput,
  type ProfilingResult,
} from '../../../../../common/teams/data';
import { data } from '../definition';
import { interpret } from '../interpretation';
import { phaseDeps, rethrowReadable, type PhaseDeps } from '../phase-deps';

/**
 * Phase 4, Statistical Analysis: the chosen analysis and its charts, computed by the profiling
 * engine; a configured model only adds an interpretation paragraph about those numbers.
 */
export const analysisPhase = data.phase('analysis', {
  name: dataPhaseRow('analysis').name,
  description:
    'Runs the chosen analysis and draws the charts; a configured model adds an interpretation.',
  timeoutSeconds: 600,
  run: (ctx) =>
    runAnalysis(phaseDeps(ctx), ctx.input, ctx.resultOf('profiling'), {
      interpret: ctx.configuration.interpret,
      generateText: async (p) => (await ctx.llm.generateText(p)).text,
    }),
});

export async function runAnalysis(
  deps: PhaseDeps,
  input: DataInput,
  profiled: ProfilingResult,
  options: {
    interpret: boolean;
    generateText: (prompt: { system: string; prompt: string }) => Promise<string>;
  },
): Promise<AnalysisPhaseResult> {
  const { profiling, log, signal } = deps;
  const parquet = profiling.files.parquet(profiled.datasetId);
  let analysis;
  let charts;
  try {
    ({ analysis, charts } = await profiling.engine.analyze(
      parquet,
      input.analysisType,
      profiled.profile,
    ));
  } catch (e) {
    return rethrowReadable(e);
  }
  await log(
    `Computed the ${input.analysisType} analysis and ${charts.length} charts from the data`,
  );
  const got = options.interpret
    ? await interpret(analysis, profiled.profile, options.generateText, signal)
    : { text: null, note: 'Interpretation turned off for this run.' };
  if (got.text) await log('The language model wrote an interpretation of the computed results');
  else await log(got.note ?? 'No interpretation');
  const interpretation = got.text;
  const interpretationNote = got.note;
  return {
    analysisType: input.analysisType,
    datasetId: profiled.datasetId,
    analysis,
    visualizations: charts,
    interpretation,
    interpretationNote,
  };
}
