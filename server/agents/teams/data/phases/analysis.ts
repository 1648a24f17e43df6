import {
  dataPhaseRow,
  type AnalysisPhaseResult,
  type AnalysisResult,
  type DataInput,
  type ProfilingResult,
  type SourceResult,
} from '../../../../../common/teams/data';
import { duckDbVersion } from '../../../../engines/profiling/index';
import type { CitationGate } from '../../../kit';
import { data } from '../definition';
import { interpret, type Interpretation } from '../interpretation';
import { phaseDeps, rethrowReadable, type PhaseDeps } from '../phase-deps';
import { profileDocument, profileProvenanceItems } from '../profile-document';

/**
 * Phase 4, Statistical Analysis: the chosen analysis and its charts, computed by the profiling
 * engine; a configured model only adds an interpretation paragraph about those numbers, which
 * passes the citation gate. The profile, its data dictionary, the analysis and the
 * interpretation (marked as the model's) are saved as a document of the session. Nothing the
 * model does or fails to do loses the computed results: without a usable paragraph the session
 * completes with a note saying why there is none.
 */
export const analysisPhase = data.phase('analysis', {
  name: dataPhaseRow('analysis').name,
  description:
    'Runs the chosen analysis and draws the charts; a configured model adds an interpretation; the profile is saved as a document.',
  timeoutSeconds: 600,
  run: (ctx) =>
    runAnalysis(
      phaseDeps(ctx),
      ctx.input,
      ctx.resultOf('profiling'),
      ctx.optionalResultOf('source') ?? null,
      {
        interpret: ctx.configuration.interpret,
        generateText: async (p) => (await ctx.llm.generateText(p)).text,
        citations: ctx.citations,
      },
    ),
});

/** The ids of the computations the saved document's tables point to. */
function computationIds(datasetId: string, type: AnalysisResult['type']) {
  return { profile: `profile:${datasetId}`, analysis: `analysis:${type}:${datasetId}` };
}

export async function runAnalysis(
  deps: PhaseDeps,
  input: DataInput,
  profiled: ProfilingResult,
  source: SourceResult | null,
  options: {
    interpret: boolean;
    generateText: (prompt: { system: string; prompt: string }) => Promise<string>;
    citations: CitationGate;
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
  const ids = computationIds(profiled.datasetId, input.analysisType);
  const version = duckDbVersion();
  deps.provenance.computation({
    id: ids.profile,
    engine: 'duckdb-profiler',
    what: `Profile of "${profiled.datasetName}": ${profiled.profile.rowCount} rows, ${profiled.profile.columnCount} columns`,
    version,
  });
  deps.provenance.computation({
    id: ids.analysis,
    engine: 'duckdb-profiler',
    what: `${input.analysisType} analysis and ${charts.length} charts of "${profiled.datasetName}"`,
    version,
  });

  const got: Interpretation = options.interpret
    ? await interpret(analysis, profiled.profile, options.generateText, signal, options.citations)
    : { text: null, note: 'Interpretation turned off for this run.' };
  if (got.text) await log('The language model wrote an interpretation of the computed results');
  else await log(got.note ?? 'No interpretation');

  const documentId = await saveProfileDocument(deps, {
    source,
    profiled,
    analysis,
    interpretation: got.text,
    interpretationNote: got.note,
    ids,
  });
  return {
    analysisType: input.analysisType,
    datasetId: profiled.datasetId,
    analysis,
    visualizations: charts,
    interpretation: got.text,
    interpretationNote: got.note,
    documentId,
  };
}

/**
 * Saves the profile and its data dictionary as a document of the session (in its project when
 * it has one). A document that cannot be saved (a viewer's session, a full quota) is said in the
 * log; the results stay on the screen and in the download.
 */
async function saveProfileDocument(
  deps: PhaseDeps,
  doc: Parameters<typeof profileDocument>[0] & { ids: ReturnType<typeof computationIds> },
): Promise<string | null> {
  try {
    const saved = await deps.workspace.documents.save({
      name: `Data profile: ${doc.profiled.datasetName}`,
      category: 'data_dictionary',
      format: 'md',
      content: profileDocument(doc),
      provenance: {
        items: profileProvenanceItems(doc.ids, doc.analysis.type, doc.interpretation !== null),
      },
    });
    await deps.log(
      `Saved the profile and its data dictionary as the document "${saved.name}"` +
        (deps.workspace.projectId ? ' in the project' : ' among your documents'),
    );
    return saved.id;
  } catch (error) {
    if (deps.signal.aborted) throw error;
    await deps.log.error(
      `The profile could not be saved as a document: ${error instanceof Error ? error.message : String(error)}. ` +
        'The results stay on this screen and in the JSON download.',
    );
    return null;
  }
}
