import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  dataPhaseRow,
  parseCleaningFeedback,
  type LoadingResult,
  type ProfilingCheckpoint,
  type ProfilingResult,
} from '../../../../../common/teams/data';
import { registerDataset } from '../catalog';
import { data } from '../definition';
import { phaseDeps, rethrowReadable, type PhaseDeps } from '../phase-deps';

const row = dataPhaseRow('profiling');

/**
 * Phase 3, Data Profiling, the team's checkpoint: every column, correlations, the time index
 * and alerts. Feedback at the checkpoint asks for cleaning; the phase then cleans a copy,
 * registers it as a new catalog dataset and profiles that instead.
 */
export const profilingPhase = data.phase('profiling', {
  name: row.name,
  description:
    'Profiles every column, correlations, the time index and alerts; the researcher reviews it and may ask for cleaning.',
  checkpoint: { title: row.checkpoint, data: (r) => profilingCheckpoint(r) },
  timeoutSeconds: 600,
  run: (ctx) =>
    runProfiling(
      phaseDeps(ctx),
      ctx.resultOf('loading'),
      ctx.revision ? { feedback: ctx.revision.feedback } : null,
    ),
});

export async function runProfiling(
  deps: PhaseDeps,
  loaded: LoadingResult,
  revision: { feedback: string } | null,
): Promise<ProfilingResult> {
  const { profiling, log, workspace } = deps;
  const parquet = profiling.files.parquet(loaded.datasetId);
  const settings = await workspace.settings.get();
  const cleaningDefaults = {
    imputation: settings.data.imputationStrategy,
    outliers: settings.data.outlierDetection,
    autoCleanData: settings.data.autoCleanData,
  };
  try {
    if (!revision) {
      const profile = await profiling.engine.profile(parquet);
      await log(
        `Profiled ${profile.rowCount} rows: ${profile.columnCount} columns, ${(profile.missingCellsShare * 100).toFixed(1)}% cells missing, ${profile.duplicateRows} duplicate rows, ${profile.alerts.length} alerts`,
      );
      return {
        datasetId: loaded.datasetId,
        datasetName: loaded.name,
        profile,
        cleaningDefaults,
        cleaning: null,
      };
    }
    const spec = parseCleaningFeedback(revision.feedback, {
      imputation: settings.data.imputationStrategy,
      outliers: settings.data.outlierDetection,
    });
    await log(
      `Cleaning as asked: imputation ${spec.imputation}, outliers ${spec.outliers}${spec.outliers !== 'none' ? ` (${spec.outlierAction})` : ''}, ${spec.dropDuplicates ? 'dropping' : 'keeping'} duplicates`,
    );
    const out = await profiling.files.scratch('data.parquet');
    const report = await profiling.engine.clean(parquet, spec, out);
    for (const note of report.notes) await log(note);
    const profile = await profiling.engine.profile(out);
    const { size } = await stat(out);
    const dataset = await registerDataset(workspace, profile, {
      name: `${loaded.name} (cleaned)`,
      description: `${loaded.name}, cleaned at the Data Profiling checkpoint: ${report.notes.join(' ')}`,
      origin: 'derived',
      format: 'parquet',
      license: 'As the source dataset.',
      citation: `Derived from catalog dataset ${loaded.datasetId}.`,
      originDetails: { derivedFrom: loaded.datasetId, cleaning: spec },
      bytes: size,
    });
    await profiling.files.adopt(dataset.id, { parquet: out });
    await rm(path.dirname(out), { recursive: true, force: true });
    await log(
      `Registered the cleaned data as "${dataset.name}" and profiled it again: ${profile.rowCount} rows, ${profile.alerts.length} alerts`,
    );
    return {
      datasetId: dataset.id,
      datasetName: dataset.name,
      profile,
      cleaningDefaults,
      cleaning: {
        spec,
        notes: report.notes,
        rowsBefore: loaded.rows,
        rowsAfter: report.rows,
        sourceDatasetId: loaded.datasetId,
      },
    };
  } catch (e) {
    return rethrowReadable(e);
  }
}

/** What the checkpoint panel shows besides the profile (the status reply carries the profile). */
export function profilingCheckpoint(result: ProfilingResult): ProfilingCheckpoint {
  return {
    datasetId: result.datasetId,
    datasetName: result.datasetName,
    rows: result.profile.rowCount,
    columns: result.profile.columnCount,
    missingCellsShare: result.profile.missingCellsShare,
    duplicateRows: result.profile.duplicateRows,
    alerts: result.profile.alerts.slice(0, 50),
    cleaningDefaults: result.cleaningDefaults,
    cleaned: result.cleaning !== null,
  };
}
